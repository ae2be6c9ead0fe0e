import type { Config } from "../../config";
import type { Db } from "../../db/client";
import type { Logger } from "../../lib/logger";
import { createPayPalClient, PAYPAL_REST_HOSTS, type PayPalClient } from "./paypal/client";
import { createPayPalRestSimulator, SIMULATOR_CREDENTIALS, SIMULATOR_REST_PREFIX } from "./paypal/simulator";

/**
 * The payments module (issue 34; its shape is decision 065). This session's foundation: PayPal's REST client and, in
 * simulator mode, the simulator's REST side it talks to. The provider, the webhook controller and the notice handlers
 * come next; the Payments Standard listener (services/paypal.ts) is untouched.
 */
export function createPaymentsService(deps: {
  db: Db;
  config: Config;
  logger: Logger;
  now: () => Date;
  /** Live and sandbox credentials (PAYPAL_CLIENT_ID / _SECRET, issue 34 part 7); the simulator needs none. */
  credentials?: { clientId: string; clientSecret: string };
}) {
  const { config } = deps;
  let selfUrl = `http://127.0.0.1:${config.port}`;
  const simulator =
    config.paypalMode === "simulator"
      ? createPayPalRestSimulator({
          db: deps.db,
          logger: deps.logger,
          now: deps.now,
          publicUrl: config.publicUrl,
          selfUrl: () => selfUrl,
        })
      : null;
  const credentials = simulator ? SIMULATOR_CREDENTIALS : deps.credentials;
  const paypal: PayPalClient | null = credentials
    ? createPayPalClient({
        baseUrl: () =>
          config.paypalMode === "simulator" ? selfUrl + SIMULATOR_REST_PREFIX : PAYPAL_REST_HOSTS[config.paypalMode],
        ...credentials,
        now: () => deps.now().getTime(),
      })
    : null;
  return {
    /** PayPal's REST API (the simulator's on this server in simulator mode); null without credentials. */
    paypal,
    /** The simulator's REST side (PAYPAL_MODE=simulator), else null. */
    simulator,
    /** How this server reaches itself, once it listens (the simulator's own address). */
    bindSelf(url: string) {
      selfUrl = url.replace(/\/+$/, "");
    },
  };
}
export type PaymentsService = ReturnType<typeof createPaymentsService>;
