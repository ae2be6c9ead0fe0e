import { sql } from "drizzle-orm";
import type { z } from "zod";
import { simulatorRestObjects } from "#server/db/schema.ts";
import type { subscriptionBody } from "./bodies";
import { takePayment } from "./billing";
import { backTo, get, put, save, shown, type Sim } from "./context";
import { change, idempotent, resendLastEvent } from "./delivery";
import { notFound, orThrow, unprocessable } from "./errors";
import { emit } from "./events";
import {
  paypalId,
  SIMULATOR_APPROVE_SUBSCRIPTION_PATH,
  type Answer,
  type Json,
  type Obj,
  type Q,
  type SimState,
} from "./model";

// ── Subscriptions ────────────────────────────────────────────────────────────────────────────────────────────────
const subscriptionLinks = (sim: Sim, id: string, status: string) => [
  ...(status === "APPROVAL_PENDING"
    ? [
        {
          href: `${sim.publicBase}${SIMULATOR_APPROVE_SUBSCRIPTION_PATH}?ba_token=BA-${id.slice(2)}&subscription_id=${id}`,
          rel: "approve",
          method: "GET",
        },
      ]
    : []),
  { href: `${sim.base()}/v1/billing/subscriptions/${id}`, rel: "edit", method: "PATCH" },
  { href: `${sim.base()}/v1/billing/subscriptions/${id}`, rel: "self", method: "GET" },
  ...(status === "ACTIVE" || status === "SUSPENDED"
    ? [{ href: `${sim.base()}/v1/billing/subscriptions/${id}/cancel`, rel: "cancel", method: "POST" }]
    : []),
];
const presentSubscription = (sim: Sim, s: Json & { id: string; status?: unknown }) => ({
  ...shown(s),
  links: subscriptionLinks(sim, s.id, String(s.status)),
});

export async function createSubscription(sim: Sim, input: z.infer<typeof subscriptionBody>, requestId?: string) {
  return idempotent(sim, "subscriptions.create", requestId, async (tx) => {
    const plan = await get(tx, "plan", input.plan_id);
    if (!plan) return notFound("plan_id");
    if (plan.status !== "ACTIVE")
      return unprocessable("PLAN_STATUS_INVALID", "Invalid plan status. Plan status should be active.");
    const id = paypalId("I-", 12);
    const ctx = input.application_context;
    const subscription = {
      id,
      status: "APPROVAL_PENDING",
      status_update_time: sim.iso(),
      plan_id: input.plan_id,
      plan_overridden: false,
      start_time: input.start_time ?? sim.iso(),
      quantity: "1",
      ...(input.custom_id ? { custom_id: input.custom_id } : {}),
      create_time: sim.iso(),
      _sim: {
        experience: ctx ? { return_url: ctx.return_url, cancel_url: ctx.cancel_url } : undefined,
        payments: 0,
      } as SimState,
    };
    await put(tx, "subscription", id, subscription, input.plan_id);
    return { status: 201, body: presentSubscription(sim, subscription) };
  });
}

export async function getSubscription(sim: Sim, id: string): Promise<Answer> {
  const s = await get(sim.deps.db, "subscription", id);
  return s ? { status: 200, body: presentSubscription(sim, s as Json & { id: string }) } : notFound("subscription_id");
}

/** The subscription's webhook of `eventType`, showing it as it is now. */
const emitSubscription = (sim: Sim, tx: Q, eventType: string, s: Obj, summary: string) =>
  emit(sim, tx, eventType, "subscription", presentSubscription(sim, s), summary);

/** The subscription saved as it now is, and its webhook of `eventType`. */
async function saveAndEmit(sim: Sim, tx: Q, s: Obj, eventType: string, summary: string) {
  await save(sim, tx, s.id, s);
  return emitSubscription(sim, tx, eventType, s, summary);
}

export async function cancelSubscription(sim: Sim, id: string, reason: string, requestId?: string) {
  return idempotent(sim, `subscriptions.cancel.${id}`, requestId, async (tx) => {
    const s = await get(tx, "subscription", id, true);
    if (!s) return notFound("subscription_id");
    if (s.status !== "ACTIVE" && s.status !== "SUSPENDED")
      return unprocessable(
        "SUBSCRIPTION_STATUS_INVALID",
        "Invalid subscription status for cancel action; subscription status should be active or suspended.",
      );
    // A cancelled subscription bills no more: no next billing time.
    const { next_billing_time: _, ...billing } = (s.billing_info ?? {}) as Json;
    const cancelled: Obj = {
      ...s,
      status: "CANCELLED",
      status_change_note: reason,
      status_update_time: sim.iso(),
      update_time: sim.iso(),
      ...(s.billing_info ? { billing_info: billing } : {}),
    };
    const transmissions = await saveAndEmit(
      sim,
      tx,
      cancelled,
      "BILLING.SUBSCRIPTION.CANCELLED",
      "Subscription cancelled",
    );
    return { status: 204, body: null, transmissions };
  });
}

// ── The approval page's outcomes and what PayPal does later ──────────────────────────────────────────────────────
/** The buyer agrees to a subscription: ACTIVATED, and its first payment taken. Answers the return address. */
export async function approveSubscription(sim: Sim, id: string) {
  const answer = await change(sim, async (tx) => {
    const s = await get(tx, "subscription", id, true);
    if (!s) return notFound("subscription_id");
    if (s.status !== "APPROVAL_PENDING")
      return unprocessable("SUBSCRIPTION_STATUS_INVALID", "This subscription was approved already.");
    const active = {
      ...s,
      status: "ACTIVE",
      status_update_time: sim.iso(),
      subscriber: {
        email_address: "buyer@example.com",
        payer_id: "SIMULATEDPAYER",
        name: { given_name: "Simulated", surname: "Buyer" },
      },
    };
    const activated = await saveAndEmit(sim, tx, active, "BILLING.SUBSCRIPTION.ACTIVATED", "Subscription activated");
    const paid = await takePayment(sim, tx, active);
    const back = s._sim.experience?.return_url;
    return {
      status: 200,
      body: back ? backTo(back, `subscription_id=${id}&ba_token=BA-${id.slice(2)}&token=${paypalId("", 17)}`) : null,
      transmissions: [...activated, ...(paid?.transmissions ?? [])],
    };
  });
  return orThrow(answer) as string | null;
}

/** The buyer cancels on the subscription's approval page: where PayPal sends them back (it stays unapproved). */
export async function cancelSubscriptionApproval(sim: Sim, id: string) {
  const s = await get(sim.deps.db, "subscription", id);
  if (!s) throw new Error(`no simulated subscription ${id}`);
  const back = s._sim.experience?.cancel_url;
  return back ? backTo(back, `subscription_id=${id}&ba_token=BA-${id.slice(2)}`) : null;
}

/** The next period's payment (a renewal); null when the plan's cycles are all paid. */
export async function renewSubscription(sim: Sim, id: string) {
  const answer = await change(sim, async (tx) => {
    const s = await get(tx, "subscription", id, true);
    if (!s || s.status !== "ACTIVE")
      return unprocessable("SUBSCRIPTION_STATUS_INVALID", "Only an active subscription renews.");
    const paid = await takePayment(sim, tx, s);
    return { status: 200, body: paid?.saleId ?? null, transmissions: paid?.transmissions ?? [] };
  });
  return orThrow(answer) as string | null;
}

/** A renewal payment fails (BILLING.SUBSCRIPTION.PAYMENT.FAILED). */
export async function failSubscriptionPayment(sim: Sim, id: string) {
  return orThrow(
    await change(sim, async (tx) => {
      const s = await get(tx, "subscription", id, true);
      if (!s || s.status !== "ACTIVE")
        return unprocessable("SUBSCRIPTION_STATUS_INVALID", "Only an active subscription bills.");
      const info = (s.billing_info ?? { failed_payments_count: 0 }) as Json;
      const count = ((info.failed_payments_count as number) ?? 0) + 1;
      // The plan's payment_failure_threshold reached: PayPal suspends the subscription (0: never).
      const plan = await get(tx, "plan", s.plan_id as string);
      const threshold = Number((plan?.payment_preferences as Json | undefined)?.payment_failure_threshold ?? 0);
      const suspended = threshold > 0 && count >= threshold;
      const failed = {
        ...s,
        ...(suspended ? { status: "SUSPENDED", status_update_time: sim.iso() } : {}),
        billing_info: { ...info, failed_payments_count: count },
        update_time: sim.iso(),
      };
      const transmissions = await saveAndEmit(
        sim,
        tx,
        failed,
        "BILLING.SUBSCRIPTION.PAYMENT.FAILED",
        "Subscription payment failed",
      );
      if (suspended)
        transmissions.push(
          ...(await emitSubscription(sim, tx, "BILLING.SUBSCRIPTION.SUSPENDED", failed, "Subscription suspended")),
        );
      return { status: 200, body: null, transmissions };
    }),
  );
}

/** PayPal suspends (too many failed payments), the buyer cancels in PayPal, or the term ends. */
export async function setSubscriptionStatus(sim: Sim, id: string, to: "SUSPENDED" | "CANCELLED" | "EXPIRED") {
  return orThrow(
    await change(sim, async (tx) => {
      const s = await get(tx, "subscription", id, true);
      if (!s || (s.status !== "ACTIVE" && s.status !== "SUSPENDED"))
        return unprocessable("SUBSCRIPTION_STATUS_INVALID", "Only an active or suspended subscription changes.");
      const changed = { ...s, status: to, status_update_time: sim.iso(), update_time: sim.iso() };
      const transmissions = await saveAndEmit(
        sim,
        tx,
        changed,
        `BILLING.SUBSCRIPTION.${to}`,
        `Subscription ${to.toLowerCase()}`,
      );
      return { status: 200, body: null, transmissions };
    }),
  );
}

/** PayPal sends a subscription's last payment webhook (PAYMENT.SALE.COMPLETED) again; null when it has none. */
export async function resendLastPayment(sim: Sim, subscriptionId: string) {
  return resendLastEvent(
    sim,
    sql`${simulatorRestObjects.data}->>'event_type' = 'PAYMENT.SALE.COMPLETED'`,
    sql`${simulatorRestObjects.data}->'resource'->>'billing_agreement_id' = ${subscriptionId}`,
  );
}
