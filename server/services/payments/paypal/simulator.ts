import { asc } from "drizzle-orm";
import type { z } from "zod";
import { simulatorWebhookTransmissions } from "#server/db/schema.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import { authorized, fault, intercept, token } from "./simulator/access";
import type { refundBody } from "./simulator/bodies";
import { createPlan, createProduct, getPlan, getProduct } from "./simulator/catalogue";
import {
  getCapture,
  refundCapture,
  refundInPayPal,
  resendLastCaptureEvent,
  reverseCapture,
  settleCapture,
} from "./simulator/captures";
import { simContext, type Sim } from "./simulator/context";
import { holdWebhooks, resendEvent, sendHeldWebhooks } from "./simulator/delivery";
import { approveOrder, cancelOrder, captureOrder, createOrder, getOrder } from "./simulator/orders";
import type { SimulatorDeps } from "./simulator/model";
import {
  approveSubscription,
  cancelSubscription,
  cancelSubscriptionApproval,
  createSubscription,
  failSubscriptionPayment,
  getSubscription,
  renewSubscription,
  resendLastPayment,
  setSubscriptionStatus,
} from "./simulator/subscriptions";
import { certificate, createWebhook, listWebhooks, verify } from "./simulator/webhooks";

export {
  REFUND_DAYS,
  SIMULATOR_APPROVE_ORDER_PATH,
  SIMULATOR_APPROVE_SUBSCRIPTION_PATH,
  SIMULATOR_CREDENTIALS,
  SIMULATOR_REST_PREFIX,
} from "./simulator/model";
export { invalidRequest, paypalError } from "./simulator/errors";
/** The request bodies the simulator accepts (createOrderBody, refundBody, …): the routes check them. */
export * from "./simulator/bodies";

/** The approval page's outcomes and what PayPal does later (the next step puts a page behind these). */
const outcomesOf = (sim: Sim) => ({
  approveOrder: withDeps(sim, approveOrder),
  cancelOrder: withDeps(sim, cancelOrder),
  settleCapture: withDeps(sim, settleCapture),
  refundInPayPal: withDeps(sim, refundInPayPal),
  reverseCapture: withDeps(sim, reverseCapture),
  approveSubscription: withDeps(sim, approveSubscription),
  cancelSubscriptionApproval: withDeps(sim, cancelSubscriptionApproval),
  renewSubscription: withDeps(sim, renewSubscription),
  failSubscriptionPayment: withDeps(sim, failSubscriptionPayment),
  setSubscriptionStatus: withDeps(sim, setSubscriptionStatus),
  resendEvent: withDeps(sim, resendEvent),
  resendLastCaptureEvent: withDeps(sim, resendLastCaptureEvent),
  resendLastPayment: withDeps(sim, resendLastPayment),
  holdWebhooks: withDeps(sim, holdWebhooks),
  sendHeldWebhooks: withDeps(sim, sendHeldWebhooks),
});

/**
 * The simulator's REST side (issue 34, part 6): PayPal's REST paths and shapes on this server, its state in the
 * database, the approval page's outcomes as functions, and webhooks sent and signed the way PayPal does (the
 * transmission headers; the signature over `transmission id|time|webhook id|CRC32 of the body`, SHA256withRSA, the
 * public key at PAYPAL-CERT-URL), so that its verify-webhook-signature answers SUCCESS only for what it sent to that
 * webhook, unchanged. Each API it simulates is in simulator/ (orders, captures, catalogue, subscriptions and their
 * billing, webhooks, access), over one context built here (decision 085).
 */
export function createPayPalRestSimulator(deps: SimulatorDeps) {
  const sim = simContext(deps);
  return {
    outcomes: outcomesOf(sim),
    fault: withDeps(sim, fault),
    /** Resolves once every webhook queued so far was sent (or held). */
    webhooksSent: () => sim.state.deliveries,
    /** The calls received (method, path, PayPal-Request-Id), oldest first. */
    received: () => [...sim.log],
    /** The webhook transmissions made, oldest first (what was sent, when, and how our endpoint answered). */
    transmissions: () =>
      deps.db.select().from(simulatorWebhookTransmissions).orderBy(asc(simulatorWebhookTransmissions.seq)),
    intercept: withDeps(sim, intercept),
    token: withDeps(sim, token),
    authorized: withDeps(sim, authorized),
    createOrder: withDeps(sim, createOrder),
    getOrder: withDeps(sim, getOrder),
    captureOrder: withDeps(sim, captureOrder),
    getCapture: withDeps(sim, getCapture),
    refundCapture: (id: string, input: z.infer<typeof refundBody>, requestId?: string) =>
      refundCapture(sim, id, input, requestId),
    createProduct: withDeps(sim, createProduct),
    getProduct: withDeps(sim, getProduct),
    createPlan: withDeps(sim, createPlan),
    getPlan: withDeps(sim, getPlan),
    createSubscription: withDeps(sim, createSubscription),
    getSubscription: withDeps(sim, getSubscription),
    cancelSubscription: withDeps(sim, cancelSubscription),
    listWebhooks: withDeps(sim, listWebhooks),
    createWebhook: withDeps(sim, createWebhook),
    verify: withDeps(sim, verify),
    certificate: withDeps(sim, certificate),
  };
}
export type PayPalRestSimulator = ReturnType<typeof createPayPalRestSimulator>;
