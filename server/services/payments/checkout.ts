import { and, asc, count, eq, inArray, lt } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { orders, paymentCheckouts } from "#server/db/schema.ts";
import { AppError } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import type { Viewer } from "../accounts";
import type { OrdersService } from "../orders";
import { captureRequestId } from "./handlers/checkout-approved";
import { applyCapture, applyPayment, type Handled, type HandlerContext } from "./handlers/context";
import { providerFailed, ProviderRefusedError, ProviderUnavailableError, type PaymentProvider } from "./provider";

/** What the pay screen says when the provider does not answer: nothing was charged, try again. */
export const PROVIDER_DOWN =
  "PayPal is not answering right now. Nothing was charged: please try again in a few minutes.";
/** A checkout older than this and never approved is given up (PayPal lets an unapproved order lapse after 3 hours). */
export const ABANDONED_AFTER_MS = 3 * 60 * 60_000;
/** The job waits this long before it looks at a checkout: the buyer may still be on PayPal's page. */
export const RECONCILE_AFTER_MS = 10 * 60_000;

/**
 * The provider's failure to start a payment or a subscription, as the pay screen says it: not answering, 503 (nothing
 * was charged); refusing, 502 with its words. Anything else is thrown as it came.
 */
export function throwStartFailure(error: unknown, what: "payment" | "subscription"): never {
  if (error instanceof ProviderUnavailableError) throw new AppError(503, PROVIDER_DOWN);
  if (error instanceof ProviderRefusedError)
    throw new AppError(502, `PayPal refused to start the ${what}: ${error.refusal} Please try again.`);
  throw error;
}

/**
 * Starts a checkout or a subscription at the provider for an order (`make`, told where the buyer comes back: the
 * order's return page, or its cancelled one) and keeps it for the return page and the job, once (a retry with the same
 * request id keeps nothing more). The provider's failure is said as the pay screen says it (throwStartFailure).
 */
export async function startAndKeep<T>(
  deps: { db: Db; now: () => Date; publicUrl: string; provider: Pick<PaymentProvider, "name"> },
  start: { kind: "order" | "subscription"; orderId: string; requestId: string },
  make: (back: { returnUrl: string; cancelUrl: string }) => Promise<{ id: string; made: T }>,
): Promise<T> {
  const base = deps.publicUrl.replace(/\/+$/, "");
  try {
    const { id, made } = await make({
      returnUrl: `${base}/received-payment/${start.orderId}`,
      cancelUrl: `${base}/order-cancelled/${start.orderId}`,
    });
    await deps.db
      .insert(paymentCheckouts)
      .values({
        id,
        provider: deps.provider.name,
        ...start,
        status: "created",
        createdAt: deps.now(),
        updatedAt: deps.now(),
      })
      .onConflictDoNothing();
    return made;
  } catch (error) {
    throwStartFailure(error, start.kind === "order" ? "payment" : "subscription");
  }
}

/** Whether `id` is a checkout (or a subscription) started for this order: one that is not changes nothing. */
export async function startedFor(
  db: Db,
  id: string,
  orderId: string,
  kind: "order" | "subscription",
): Promise<boolean> {
  const [mine] = await db
    .select({ id: paymentCheckouts.id })
    .from(paymentCheckouts)
    .where(and(eq(paymentCheckouts.id, id), eq(paymentCheckouts.orderId, orderId), eq(paymentCheckouts.kind, kind)));
  return mine !== undefined;
}

export interface CheckoutDeps {
  db: Db;
  orders: Pick<OrdersService, "get">;
  context: HandlerContext;
  publicUrl: string;
  logger: Logger;
  now: () => Date;
}

async function capture({ db, context, now }: CheckoutDeps, orderId: string, checkoutId: string): Promise<Handled> {
  const { provider } = context;
  const done = await applyCapture(context, orderId, await provider.capture(checkoutId, captureRequestId(checkoutId)));
  await db
    .update(paymentCheckouts)
    .set({ status: "captured", updatedAt: now() })
    .where(eq(paymentCheckouts.id, checkoutId));
  return done;
}

/**
 * The pay button: a checkout for the customer's own unpaid order at the server's price, and where to send the
 * buyer. The request id is the order's and the day's, so a double click or a retry after a failure makes one.
 */
async function start(
  deps: CheckoutDeps,
  viewer: Viewer,
  orderId: string,
): Promise<{ approveUrl: string; checkoutId: string }> {
  const { db } = deps;
  const { provider } = deps.context;
  const order = await deps.orders.get(viewer, orderId);
  if (order.paymentStatus !== "UnPaid")
    throw new AppError(409, `This order is ${order.paymentStatus} and needs no payment.`);
  // A checkout PayPal already finished without paying the order (denied) cannot be approved again: the next try
  // is a new PayPal order, so the key counts the finished ones.
  const [counted] = await db
    .select({ finished: count() })
    .from(paymentCheckouts)
    .where(and(eq(paymentCheckouts.orderId, order._id), eq(paymentCheckouts.status, "captured")));
  const finished = counted?.finished ?? 0;
  const requestId = `checkout-${order._id}-${deps.now().toISOString().slice(0, 10)}${finished ? `-${finished}` : ""}`;
  return startAndKeep({ ...deps, provider }, { kind: "order", orderId: order._id, requestId }, async (back) => {
    const made = await provider.createCheckout({
      orderId: order._id,
      orderNumber: order.orderNumber,
      description: `${order.packageName} membership (${order.packageValidity} days)`,
      amount: { currency: order.currency, value: order.packagePrice.toFixed(2) },
      ...back,
      requestId,
    });
    return { id: made.checkoutId, made };
  });
}

/**
 * The buyer is back from the approval page (`token`: the checkout id): capture, unless the order is paid already
 * (the approved notice came first). A checkout that is not this order's changes nothing. PayPal down: the order
 * stays as it is and the notice or the job finishes it.
 */
async function returned(
  deps: CheckoutDeps,
  viewer: Viewer,
  orderId: string,
  token: string | null,
): Promise<Handled | { outcome: "waiting" }> {
  const order = await deps.orders.get(viewer, orderId);
  if (!token || order.paymentStatus !== "UnPaid") return { outcome: "waiting" };
  if (!(await startedFor(deps.db, token, order._id, "order"))) return { outcome: "waiting" };
  try {
    return await capture(deps, order._id, token);
  } catch (error) {
    if (providerFailed(error)) {
      deps.logger.warn({ error, orderId }, "capture on return failed; the webhook or the job finishes it");
      return { outcome: "waiting" };
    }
    throw error;
  }
}

/**
 * The reconciliation job: checkouts older than RECONCILE_AFTER_MS whose order is still unpaid, asked again. An
 * approved one is captured (the buyer closed the tab and the notice was lost); a captured one applied; one never
 * approved after ABANDONED_AFTER_MS given up. At most `limit` a run, oldest first.
 */
async function reconcile(deps: CheckoutDeps, limit = 50): Promise<{ looked: number; paid: number; abandoned: number }> {
  const { db, logger } = deps;
  const now = deps.now();
  const open = await db
    .select({ id: paymentCheckouts.id, orderId: paymentCheckouts.orderId, createdAt: paymentCheckouts.createdAt })
    .from(paymentCheckouts)
    .innerJoin(orders, eq(orders.id, paymentCheckouts.orderId))
    .where(
      and(
        eq(paymentCheckouts.status, "created"),
        eq(paymentCheckouts.kind, "order"),
        eq(orders.paymentStatus, "UnPaid"),
        lt(paymentCheckouts.createdAt, new Date(now.getTime() - RECONCILE_AFTER_MS)),
      ),
    )
    .orderBy(asc(paymentCheckouts.createdAt))
    .limit(limit);
  let paid = 0;
  const abandoned: string[] = [];
  for (const c of open) {
    try {
      const done = await reconcileOne(deps, c, now);
      if (done === "abandoned") abandoned.push(c.id);
      else if (done?.outcome === "applied") paid++;
    } catch (error) {
      logger.warn({ error, checkoutId: c.id }, "reconciliation: checkout not readable now");
    }
  }
  if (abandoned.length)
    await db
      .update(paymentCheckouts)
      .set({ status: "abandoned", updatedAt: now })
      .where(inArray(paymentCheckouts.id, abandoned));
  return { looked: open.length, paid, abandoned: abandoned.length };
}

/** One open checkout asked again: what capturing or applying it did, "abandoned" when it is given up, else null. */
async function reconcileOne(
  deps: CheckoutDeps,
  c: { id: string; orderId: string; createdAt: Date },
  now: Date,
): Promise<Handled | "abandoned" | null> {
  const { db, context } = deps;
  const seen = await context.provider.readCheckout(c.id);
  if (seen.status === "approved") return capture(deps, c.orderId, c.id);
  if (seen.status === "captured" && seen.payment) {
    const done =
      seen.payment.status === "completed"
        ? await applyPayment(context, {
            orderId: seen.payment.orderId ?? c.orderId,
            paymentId: seen.payment.paymentId,
            amount: seen.payment.amount,
          })
        : await applyCapture(context, c.orderId, seen.payment);
    await db.update(paymentCheckouts).set({ status: "captured", updatedAt: now }).where(eq(paymentCheckouts.id, c.id));
    return done;
  }
  if (seen.status === "void" || now.getTime() - c.createdAt.getTime() > ABANDONED_AFTER_MS) return "abandoned";
  return null;
}

/**
 * One-time payments on the provider's checkout (issue 34 part 2, decision 066): start (the pay form posts here; the
 * buyer goes to the approval link), capture on return, and the reconciliation job. Every capture of one checkout uses
 * one request id (`capture-{checkout id}`), so the return, a reload, the approved notice and the job take the money
 * once; each result goes through the one money check (handlers/context.ts) to the order commands.
 */
export function createCheckoutService(deps: CheckoutDeps) {
  return {
    start: withDeps(deps, start),
    returned: withDeps(deps, returned),
    reconcile: withDeps(deps, reconcile),
  };
}
export type CheckoutService = ReturnType<typeof createCheckoutService>;
