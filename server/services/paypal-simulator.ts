import { withDeps } from "../lib/with-deps";
import { cancel, describe, pay, sentIt, validate } from "./paypal-simulator/checkout";
import { simulatorContext, type PayPalSimulatorDeps } from "./paypal-simulator/context";
import { resend, subscriptionEvent, subscriptionsOf } from "./paypal-simulator/subscriptions";

export { SIMULATOR_HEADER } from "./paypal-simulator/context";

export const SIMULATOR_PATH = "/paypal-simulator";
export const SIMULATOR_VERIFY_PATH = "/paypal-simulator/cgi-bin/webscr";

/**
 * The built-in stand-in for PayPal (PAYPAL_MODE=simulator) on a machine with no internet: its checkout page's Pay and
 * Cancel, the notification it sends to our IPN listener, and the verification postback that answers VERIFIED only
 * for what it sent itself. It only ever talks to this server (`selfUrl`), and only for this site's own forms. The
 * checkout page's actions are in paypal-simulator/checkout.ts, a subscription's later events in
 * paypal-simulator/subscriptions.ts, the notifications' words in paypal-simulator/ipn.ts (decision 085).
 */
export function createPayPalSimulator(deps: PayPalSimulatorDeps) {
  const ctx = simulatorContext(deps);
  return {
    describe: withDeps(ctx, describe),
    sentIt: withDeps(ctx, sentIt),
    pay: withDeps(ctx, pay),
    subscriptionsOf: withDeps(ctx, subscriptionsOf),
    subscriptionEvent: withDeps(ctx, subscriptionEvent),
    resend: withDeps(ctx, resend),
    cancel: withDeps(ctx, cancel),
    validate: withDeps(ctx, validate),
  };
}

export type PayPalSimulator = ReturnType<typeof createPayPalSimulator>;
