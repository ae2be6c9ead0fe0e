import { createHash, randomBytes } from "node:crypto";
import type { Config } from "#server/config.ts";
import type { Db } from "#server/db/client.ts";
import { simulatorMessages } from "#server/db/schema.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { OrdersService } from "../orders";

/**
 * The header the simulator's own notifications carry, with a secret of this process: the listener's per-address limit
 * is for floods from outside, and the simulator (this same process, posting to itself) is no flood.
 */
export const SIMULATOR_HEADER = "x-atelier-simulator";

export interface PayPalSimulatorDeps {
  db: Db;
  config: Config;
  orders: Pick<OrdersService, "byId">;
  logger: Logger;
  /** How this server reaches itself (known once it listens). */
  selfUrl: () => string;
}

/** The simulator's dependencies, its mode, and the secret its own notifications carry (one per process). */
export interface SimulatorContext {
  deps: PayPalSimulatorDeps;
  mode: Config["paypalMode"];
  secret: string;
}

export const simulatorContext = (deps: PayPalSimulatorDeps): SimulatorContext => ({
  deps,
  mode: deps.config.paypalMode,
  secret: randomBytes(32).toString("hex"),
});

export const digest = (raw: string) => createHash("sha256").update(raw).digest("hex");

/** An address of ours (PUBLIC_URL's origin) turned into the same path on this server; anything else refused. */
export function ownPath({ deps }: SimulatorContext, address: string | undefined): string | null {
  if (!address) return null;
  try {
    const url = new URL(address);
    return url.origin === new URL(deps.config.publicUrl).origin ? url.pathname + url.search : null;
  } catch {
    return null;
  }
}

export const newTxnId = () => randomBytes(9).toString("hex").toUpperCase().slice(0, 17);

/** Posts a notification to the form's notify_url, having noted it as sent (its postback then says VERIFIED). */
export async function send(ctx: SimulatorContext, fields: Record<string, string>, ipn: string) {
  const { db, logger } = ctx.deps;
  await db
    .insert(simulatorMessages)
    .values({ digest: digest(ipn) })
    .onConflictDoNothing();
  const res = await fetch(ctx.deps.selfUrl() + ownPath(ctx, fields.notify_url)!, {
    method: "POST",
    headers: {
      "content-type": "application/x-www-form-urlencoded",
      "user-agent": "PayPal IPN ( https://www.paypal.com/ipn )",
      [SIMULATOR_HEADER]: ctx.secret,
    },
    body: ipn,
    signal: AbortSignal.timeout(10_000),
  });
  if (!res.ok) logger.warn({ status: res.status }, "the simulated notification was not accepted");
}
