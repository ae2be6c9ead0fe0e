import { opens } from "#domain/capabilities.ts";
import { planTerms, type PlanTerms } from "#domain/subscription-plan.ts";
import type { Db } from "#server/db/client.ts";
import { AppError, isId, notFound } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import type { Viewer } from "../accounts";
import type { ContentService } from "../content";
import type { OrdersService } from "../orders";
import type { SubscriptionsService } from "../subscriptions";
import { startAndKeep, startedFor } from "./checkout";
import { providerFailed, ProviderRefusedError, ProviderUnavailableError } from "./provider";
import type { PlansService } from "./plans";
import type { PaymentProvider, SubscriptionState } from "./provider";

/** What the cancel buttons say when the provider does not answer: nothing changed, try again. */
export const CANCEL_DOWN =
  "PayPal is not answering right now, so the subscription was not cancelled and nothing changed. Please try again in a few minutes.";
/** What the subscribe button says for a plan that does not renew automatically (or cannot on PayPal). */
export const NOT_RENEWABLE = "This plan does not renew automatically: pay for it once with the button above.";

/** What the return page knows of a subscription the buyer came back from. */
export type SubscriptionReturn = { status: SubscriptionState["status"] } | null;

/** What the subscribe service is made from. */
export interface SubscribeDeps {
  db: Db;
  orders: Pick<OrdersService, "get" | "byId">;
  content: Pick<ContentService, "get">;
  subscriptions: Pick<SubscriptionsService, "get" | "markCancelled">;
  plans: PlansService;
  provider: PaymentProvider;
  publicUrl: string;
  logger: Logger;
  now: () => Date;
}

/** The customer's own unpaid order, its package if that renews automatically, and its plan terms (or null). */
async function offerOf(deps: SubscribeDeps, viewer: Viewer, orderId: string) {
  const order = await deps.orders.get(viewer, orderId);
  if (order.paymentStatus !== "UnPaid") return { order, row: undefined, pkg: null, terms: null };
  const row = await deps.orders.byId(order._id);
  const pkg = row?.packageId ? await deps.content.get("pricing", row.packageId).catch(() => null) : null;
  const terms = row && pkg?.autoRenew === true ? planTerms({ ...row, packageValidity: order.packageValidity }) : null;
  return { order, row, pkg, terms };
}

/** The terms the pay screen offers a subscription on, or null (not a package that renews, or not payable). */
async function offer(deps: SubscribeDeps, viewer: Viewer, orderId: string): Promise<PlanTerms | null> {
  return (await offerOf(deps, viewer, orderId)).terms;
}

/**
 * The Subscribe button: the plan for the order's terms (made once, reused), a subscription at the provider for the
 * customer's own unpaid order (custom_id: our order id; the request id the order's and the day's, so a double click
 * makes one), kept for the return page, and where to send the buyer. PayPal down: nothing is kept, the screen says so.
 */
async function start(
  deps: SubscribeDeps,
  viewer: Viewer,
  orderId: string,
): Promise<{ approveUrl: string; subscriptionId: string }> {
  const { order, row, terms } = await offerOf(deps, viewer, orderId);
  if (order.paymentStatus !== "UnPaid")
    throw new AppError(409, `This order is ${order.paymentStatus} and needs no payment.`);
  if (!row?.packageId || !terms) throw new AppError(409, NOT_RENEWABLE);
  const requestId = `subscribe-${order._id}-${deps.now().toISOString().slice(0, 10)}`;
  const pkg = { id: row.packageId, name: order.packageName };
  return startAndKeep(deps, { kind: "subscription", orderId: order._id, requestId }, async (back) => {
    const plan = await deps.plans.planFor(pkg, terms);
    const made = await deps.provider.startSubscription({ planId: plan.planId, orderId: order._id, ...back, requestId });
    return { id: made.subscriptionId, made };
  });
}

/**
 * The buyer is back from approving (`subscription_id`): the subscription as the provider has it, when it is this
 * order's; null otherwise, or when the provider cannot be asked (the webhooks finish the order then).
 */
async function returned(
  deps: SubscribeDeps,
  viewer: Viewer,
  orderId: string,
  subscriptionId: string,
): Promise<SubscriptionReturn> {
  const { db, provider, logger } = deps;
  const order = await deps.orders.get(viewer, orderId);
  if (!(await startedFor(db, subscriptionId, order._id, "subscription"))) return null;
  try {
    const state = await provider.readSubscription(subscriptionId);
    return { status: state.status };
  } catch (error) {
    if (providerFailed(error)) {
      logger.warn({ error, orderId }, "the subscription could not be read on return; its webhooks finish it");
      return null;
    }
    throw error;
  }
}

/**
 * A subscription cancelled by its customer (their own only: another's is not found) or by staff who open customers.
 * On the Subscriptions API it is cancelled at the provider first, then recorded (the time paid for stays; the
 * cancellation mail goes once, whether this or the provider's CANCELLED notice records it first). PayPal down or
 * refusing: nothing is recorded and the caller is told. A Payments Standard one is only recorded here (PayPal's
 * REST API cannot reach it: staff stop it in PayPal, as the screen says).
 */
async function cancel(deps: SubscribeDeps, viewer: Viewer, id: string): Promise<{ modified: boolean }> {
  const { provider } = deps;
  if (!isId(id)) throw notFound("Subscription not found");
  const s = await deps.subscriptions.get(id);
  const staff = opens(viewer, "customers");
  if (!staff && s.userId !== viewer.id) throw notFound("Subscription not found");
  if (!staff && s.rail !== "api")
    throw new AppError(409, "This subscription was made on PayPal's older system: cancel it in your PayPal account.");
  if (s.status !== "active") return { modified: false };
  /** Whether this request stopped it at the provider (not found stopped there already). */
  let stoppedHere = false;
  if (s.rail === "api") {
    try {
      await provider.cancelSubscription(
        s.subscrId,
        staff ? "Cancelled by the studio at the customer's request." : "Cancelled by the customer.",
      );
      stoppedHere = true;
    } catch (error) {
      // 504: the provider (the gateway) did not answer; 503 is this site's own outage (the database).
      if (error instanceof ProviderUnavailableError) throw new AppError(504, CANCEL_DOWN);
      if (!(error instanceof ProviderRefusedError)) throw error;
      // Already stopped at PayPal (cancelled or ended there, its notice not here yet): record it all the same.
      const state = await provider.readSubscription(s.subscrId).catch(() => null);
      if (!state || (state.status !== "cancelled" && state.status !== "expired"))
        throw new AppError(502, `PayPal refused to cancel the subscription: ${error.refusal}`);
    }
  }
  const marked = await deps.subscriptions.markCancelled(id, viewer);
  // The provider's own notice of the cancellation (PayPal sends it at once) may be recorded before this line: the
  // subscription was still stopped by this request, and the person who asked is told so.
  return stoppedHere ? { modified: true } : marked;
}

/**
 * Automatic renewal on the provider's subscriptions (issue 34 part 4, decision 070): the pay screen's offer and its
 * Subscribe button (a plan made or reused, the subscription started with our order id, the buyer sent to approve it),
 * what the return page reads, and cancelling by the customer or staff (at the provider for a Subscriptions API one,
 * then recorded by the subscriptions service, the only writer of subscriptions).
 */
export function createSubscribeService(deps: SubscribeDeps) {
  return {
    offer: withDeps(deps, offer),
    start: withDeps(deps, start),
    returned: withDeps(deps, returned),
    cancel: withDeps(deps, cancel),
  };
}
export type SubscribeService = ReturnType<typeof createSubscribeService>;
