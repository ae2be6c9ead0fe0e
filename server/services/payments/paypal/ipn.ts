import { and, eq, inArray, sql } from "drizzle-orm";
import { moneyCents } from "#domain/payment-check.ts";
import { periodDays, subscrIdOf } from "#domain/subscription.ts";
import { subscriptionTerms } from "#domain/subscription-price.ts";
import type { Db } from "#server/db/client.ts";
import { paymentNotices } from "#server/db/schema.ts";
import { isId } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import { handle, type Handled, type HandlerContext } from "../handlers";
import type { Money, Notice } from "../provider";

/**
 * PayPal Payments Standard's IPN listener (issue 34 parts 1 and 5, decision 069), kept for what was started on it:
 * Subscribe-button subscriptions renew through it until they end, and refunds and reversals of old payments arrive by
 * it. Each message is stored first (nothing lost on a crash), verified by PayPal's postback, checked for what only IPN
 * needs (our receiver; a sign-up's terms against the order), then parsed by one table into the same notices the REST
 * webhooks give, handed to the same handlers and money check, and its outcome stored by one function, `settle`.
 */

/** The provider name IPN messages are stored under in payment_notices (beside the REST webhooks' "paypal"). */
export const IPN_PROVIDER = "paypal-ipn";
/** PayPal's postback addresses (the simulator's is on this server, SIMULATOR_VERIFY_PATH). */
export const IPN_VERIFY_URLS = {
  live: "https://ipnpb.paypal.com/cgi-bin/webscr",
  sandbox: "https://ipnpb.sandbox.paypal.com/cgi-bin/webscr",
} as const;
/** Notifications accepted per sending address: PayPal sends a few per payment; a flood of forgeries stops here. */
export const IPN_LIMIT = { name: "ipn:ip", limit: 60, windowMs: 60_000 };
/** A stored message not yet processed (received just now, or when the app stopped half-way). */
export const IPN_RECEIVED = "received";
/** A message PayPal's postback could not be asked about (PayPal unreachable): processed again by the job. */
export const IPN_UNVERIFIED = "unverified";

// What PostgreSQL cannot store as text: a NUL, or an unpaired UTF-16 surrogate.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;
const UNSTORABLE_ALL = new RegExp(UNSTORABLE.source, "g");

type Fields = URLSearchParams;
type Base = { eventId: string; occurredAt: string; orderId: string | null };
/** A message's parser: its notice, or why it is none (a field it needs is missing; a status that changes nothing). */
type Parse = (p: Fields, base: Base) => Notice | { malformed: string } | { ignored: string };

/** An IPN amount as a provider's decimal string: a refund's mc_gross is negative, the notice holds what went back. */
function moneyOf(p: Fields, field = "mc_gross"): Money | null {
  const raw = p.get(field)?.trim().replace(/^-/, "");
  const currency = p.get("mc_currency");
  return raw && currency && moneyCents(raw) !== null ? { currency, value: raw } : null;
}

const need = (what: string) => ({ malformed: `no ${what}` });

const payment =
  (type: "payment.completed" | "payment.denied"): Parse =>
  (p, base) => {
    const paymentId = p.get("txn_id");
    const amount = moneyOf(p);
    if (!paymentId) return need("transaction id");
    if (!amount) return need("amount in a currency");
    return { ...base, type, paymentId, checkoutId: null, amount };
  };
const refund =
  (type: "payment.refunded" | "payment.reversed"): Parse =>
  (p, base) => {
    const refundId = p.get("txn_id");
    const amount = moneyOf(p);
    if (!refundId) return need("transaction id");
    if (!amount) return need("amount in a currency");
    return { ...base, type, refundId, paymentId: p.get("parent_txn_id"), amount };
  };
const subscription =
  (
    type: "subscription.activated" | "subscription.payment-failed" | "subscription.cancelled" | "subscription.expired",
  ): Parse =>
  (p, base) => {
    const subscriptionId = subscrIdOf(p);
    return subscriptionId ? { ...base, type, subscriptionId } : need("subscription id");
  };
const subscriptionPayment: Parse = (p, base) => {
  const subscriptionId = subscrIdOf(p);
  const paymentId = p.get("txn_id");
  const amount = moneyOf(p);
  const status = p.get("payment_status");
  if (!subscriptionId) return need("subscription id");
  if (!paymentId) return need("transaction id");
  if (!amount) return need("amount in a currency");
  // A subscription payment given back later keeps its txn_type on some messages: a refund like any other.
  if (status === "Refunded" || status === "Reversed")
    return refund(status === "Refunded" ? "payment.refunded" : "payment.reversed")(p, base);
  if (status !== "Completed" && status !== "Pending")
    return { ignored: `payment status ${status ?? "(none)"} changes nothing` };
  return {
    ...base,
    type: "subscription.payment",
    subscriptionId,
    paymentId,
    amount,
    status: status === "Pending" ? "pending" : "completed",
    reason: p.get("pending_reason"),
  };
};

/**
 * IPN messages → notices: a subscription message by its txn_type, any other by its payment_status. One table, no chain
 * of conditions; a message not in it changes nothing (stored as ignored).
 */
export const IPN_NOTICES: Record<string, Parse> = {
  // Subscribe buttons (subscr_*) and the older recurring-payments profiles.
  subscr_signup: subscription("subscription.activated"),
  subscr_payment: subscriptionPayment,
  recurring_payment: subscriptionPayment,
  subscr_failed: subscription("subscription.payment-failed"),
  recurring_payment_failed: subscription("subscription.payment-failed"),
  recurring_payment_skipped: subscription("subscription.payment-failed"),
  subscr_cancel: subscription("subscription.cancelled"),
  recurring_payment_profile_cancel: subscription("subscription.cancelled"),
  subscr_eot: subscription("subscription.expired"),
  recurring_payment_expired: subscription("subscription.expired"),
  // One-time payments (Buy Now) and what happens to them later.
  "status:Completed": payment("payment.completed"),
  "status:Pending": (p, base) => {
    const paymentId = p.get("txn_id");
    const amount = moneyOf(p);
    if (!paymentId) return need("transaction id");
    if (!amount) return need("amount in a currency");
    return { ...base, type: "payment.pending", paymentId, checkoutId: null, amount, reason: p.get("pending_reason") };
  },
  "status:Denied": payment("payment.denied"),
  "status:Refunded": refund("payment.refunded"),
  "status:Reversed": refund("payment.reversed"),
};

/** The table's key of a message: its txn_type when the table has it, else its payment_status. */
function keyOf(p: Fields): string | null {
  const txnType = p.get("txn_type");
  if (txnType && Object.hasOwn(IPN_NOTICES, txnType)) return txnType;
  const key = `status:${p.get("payment_status") ?? ""}`;
  return Object.hasOwn(IPN_NOTICES, key) ? key : null;
}

/**
 * A verified message as a notice, or why it is none: `ignored` (a message we do not act on) or `malformed`. The
 * event id is PayPal's ipn_track_id (the same on a resend), else the transaction's, else the stored row's.
 */
export function ipnNotice(
  raw: string,
  storedId: string,
): { kind: "notice"; notice: Notice } | { kind: "ignored"; reason: string } | { kind: "malformed"; reason: string } {
  const p = new URLSearchParams(raw);
  const key = keyOf(p);
  if (!key) return { kind: "ignored", reason: `payment status ${p.get("payment_status") ?? "(none)"} changes nothing` };
  const base: Base = {
    eventId: p.get("ipn_track_id") || p.get("txn_id") || storedId,
    occurredAt: p.get("payment_date") || p.get("subscr_date") || "",
    orderId: p.get("custom") || null,
  };
  const parsed = IPN_NOTICES[key]!(p, base);
  if ("ignored" in parsed) return { kind: "ignored", reason: parsed.ignored };
  if ("malformed" in parsed)
    return { kind: "malformed", reason: `${key.replace(/^status:/, "")}: ${parsed.malformed}` };
  return { kind: "notice", notice: parsed };
}

/** What the listener decided about one stored message, stored with it by `settle`. */
interface Settled {
  verdict: "accepted" | "forged" | "malformed" | "ignored" | "received";
  outcome: string;
  reason: string;
  orderId: string | null;
  notice?: Notice;
}

export interface IpnDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
  /** Where PayPal's postback is asked (the simulator's on this server in simulator mode). */
  verifyUrl: () => string;
  /** Our PayPal account's address (receiver_email). */
  receiver: () => Promise<string>;
  context: HandlerContext;
}

/**
 * Stores a message as it came, before anything answers PayPal: once this returns, a crash loses nothing (the job
 * processes it again). Text PostgreSQL cannot hold (a NUL) is no PayPal message: stored escaped, rejected, not
 * processed (null).
 */
async function receive({ db, logger, now }: IpnDeps, raw: string): Promise<string | null> {
  let decoded: string[];
  try {
    decoded = [...new URLSearchParams(raw)].flat();
  } catch {
    decoded = [];
  }
  const base = { provider: IPN_PROVIDER, headers: {}, receivedAt: now(), updatedAt: now() };
  if (UNSTORABLE.test(raw) || decoded.some((v) => UNSTORABLE.test(v))) {
    await db.insert(paymentNotices).values({
      ...base,
      raw: raw.replace(UNSTORABLE_ALL, (c) => `\\u${c.charCodeAt(0).toString(16).padStart(4, "0")}`),
      verdict: "malformed",
      outcome: "rejected",
      reason: "the notification holds a NUL character or an unpaired surrogate: not one of PayPal's",
    });
    logger.warn("paypal notification rejected: unstorable characters");
    return null;
  }
  const p = new URLSearchParams(raw);
  const [row] = await db
    .insert(paymentNotices)
    .values({
      ...base,
      raw,
      claimedEventId: p.get("ipn_track_id")?.slice(0, 200) ?? null,
      eventType: (p.get("txn_type") ?? p.get("payment_status"))?.slice(0, 100) ?? null,
      verdict: "received",
      outcome: IPN_RECEIVED,
      reason: "stored; not processed yet",
    })
    .returning({ id: paymentNotices.id });
  return row!.id;
}

/** Posts the message back to PayPal (or the simulator) and requires VERIFIED. */
async function verify({ verifyUrl }: IpnDeps, raw: string): Promise<"VERIFIED" | "INVALID" | Error> {
  try {
    const res = await fetch(verifyUrl(), {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", "user-agent": "Atelier-IPN-Verifier" },
      body: `cmd=_notify-validate&${raw}`,
      signal: AbortSignal.timeout(30_000),
    });
    const text = (await res.text()).trim();
    if (text === "VERIFIED") return "VERIFIED";
    if (text === "INVALID") return "INVALID";
    return new Error(`unexpected verification answer (${res.status}): ${text.slice(0, 80)}`);
  } catch (error) {
    return error instanceof Error ? error : new Error(String(error));
  }
}

/**
 * What only an IPN message needs checked before its notice is handled: the money went to our account, and a
 * sign-up's terms are the ones the order's Subscribe button asked for (amount and period each time, the introductory
 * period exactly as sent, or none). Null when it passes.
 */
async function ipnRefusal({ receiver: ours, context }: IpnDeps, p: Fields, notice: Notice): Promise<string | null> {
  const receiver = (p.get("receiver_email") ?? p.get("business") ?? "").toLowerCase();
  if (receiver !== (await ours()).toLowerCase()) return `receiver ${receiver || "(none)"} is not our account`;
  if (notice.type !== "subscription.activated") return null;
  const order = await context.orders.byId(notice.orderId ?? "");
  if (!order) return null;
  const terms = subscriptionTerms(order);
  const cents = (v: string | null) => (v === null ? null : moneyCents(v.trim()));
  const want = (n: number) => Math.round(n * 100);
  if (p.get("mc_currency") !== order.currency)
    return `currency ${p.get("mc_currency")} is not the order's ${order.currency}`;
  if (cents(p.get("mc_amount3") ?? p.get("amount3")) !== want(terms.regular))
    return `amount ${p.get("mc_amount3")} is not the order's ${terms.regular.toFixed(2)} each period`;
  if (periodDays(p.get("period3")) !== order.packageValidity)
    return `period ${p.get("period3")} is not the order's ${order.packageValidity} days`;
  const intro = p.get("mc_amount1") ?? p.get("amount1");
  const introPeriod = p.get("period1");
  if (terms.intro === null && (intro !== null || introPeriod !== null))
    return `an introductory period (${intro ?? "?"} for ${introPeriod ?? "?"}) the order did not ask for`;
  if (terms.intro !== null && cents(intro) !== want(terms.intro))
    return `first period's amount ${intro ?? "(none)"} is not the order's ${terms.intro.toFixed(2)}`;
  if (terms.intro !== null && periodDays(introPeriod) !== order.packageValidity)
    return `first period ${introPeriod ?? "(none)"} is not the order's ${order.packageValidity} days`;
  return null;
}

/** One stored message, verified, checked, parsed and handled: what becomes of it (not yet stored). */
async function decide(deps: IpnDeps, id: string, raw: string): Promise<Settled> {
  const { context } = deps;
  const p = new URLSearchParams(raw);
  const orderId = p.get("custom");
  const verified = await verify(deps, raw);
  if (verified instanceof Error)
    return {
      verdict: "received",
      outcome: IPN_UNVERIFIED,
      reason: `verification failed: ${verified.message}`,
      orderId,
    };
  if (verified === "INVALID")
    return { verdict: "forged", outcome: "rejected", reason: "PayPal answered INVALID", orderId };
  const parsed = ipnNotice(raw, id);
  if (parsed.kind === "malformed") return { verdict: "malformed", outcome: "rejected", reason: parsed.reason, orderId };
  // A message naming no order of ours changes nothing (PayPal's account sends messages for other sales too).
  if (!(await context.orders.byId(orderId ?? "")))
    return {
      verdict: parsed.kind === "notice" ? "accepted" : "ignored",
      outcome: "ignored",
      reason: "no order matches the custom field",
      orderId,
    };
  if (parsed.kind === "ignored") return { verdict: "ignored", outcome: "ignored", reason: parsed.reason, orderId };
  const { notice } = parsed;
  const refusal = await ipnRefusal(deps, p, notice);
  if (refusal) return { verdict: "accepted", outcome: "refused", reason: refusal, orderId, notice };
  const done: Handled = await handle(notice, context);
  return { verdict: "accepted", ...done, orderId: done.orderId ?? orderId, notice };
}

/** The one place an IPN message's outcome is stored (and logged). */
async function settle({ db, logger, now }: IpnDeps, id: string, s: Settled) {
  const n = s.notice;
  const amount = n && "amount" in n && n.amount ? moneyCents(n.amount.value) : null;
  await db
    .update(paymentNotices)
    .set({
      verdict: s.verdict,
      outcome: s.outcome,
      reason: s.reason,
      orderId: s.orderId && isId(s.orderId) ? s.orderId : null,
      noticeType: n?.type ?? null,
      subscriptionId: n && "subscriptionId" in n ? n.subscriptionId : null,
      ...(n && "amount" in n && n.amount && amount !== null
        ? { amount: amount / 100, currency: n.amount.currency }
        : {}),
      updatedAt: now(),
    })
    .where(eq(paymentNotices.id, id));
  const fields = { reason: s.reason, orderId: s.orderId, type: n?.type ?? null };
  if (s.outcome === "applied" || s.outcome === "duplicate") logger.info(fields, `paypal notification ${s.outcome}`);
  else logger.warn(fields, `paypal notification ${s.outcome}`);
}

/** One stored message processed: its outcome, stored. */
async function processStored(deps: IpnDeps, id: string, raw: string): Promise<string> {
  const settled = await decide(deps, id, raw);
  await settle(deps, id, settled);
  return settled.outcome;
}

/** Processes a stored message once PayPal has its answer; a failure is logged, and the job takes it again. */
function processAfterAnswer(deps: IpnDeps, id: string, raw: string): void {
  processStored(deps, id, raw).catch((error: unknown) => deps.logger.error({ error }, "paypal notification failed"));
}

/** Stores a message, then processes it (the simulator and tests; the endpoint answers PayPal in between). */
async function receiveAndProcess(deps: IpnDeps, raw: string): Promise<string | null> {
  const id = await receive(deps, raw);
  return id ? processStored(deps, id, raw) : null;
}

/**
 * Processes again what is stored but unfinished: messages stored when the app stopped before processing them
 * (older than a minute, so one being processed right now is left alone), and those of the last three days that
 * could not be verified when they came (PayPal unreachable; it does not resend a message we answered 200).
 */
async function retry(deps: IpnDeps): Promise<{ retried: number }> {
  const pending = await deps.db
    .select({ id: paymentNotices.id, raw: paymentNotices.raw })
    .from(paymentNotices)
    .where(
      and(
        eq(paymentNotices.provider, IPN_PROVIDER),
        inArray(paymentNotices.outcome, [IPN_RECEIVED, IPN_UNVERIFIED]),
        sql`${paymentNotices.receivedAt} > now() - interval '3 days'`,
        sql`(${paymentNotices.outcome} <> ${IPN_RECEIVED} or ${paymentNotices.receivedAt} < now() - interval '1 minute')`,
      ),
    )
    .orderBy(paymentNotices.receivedAt)
    .limit(50);
  for (const { id, raw } of pending) await processStored(deps, id, raw);
  return { retried: pending.length };
}

export function createIpnListener(deps: IpnDeps) {
  return {
    receive: withDeps(deps, receive),
    process: withDeps(deps, processStored),
    processAfterAnswer: withDeps(deps, processAfterAnswer),
    handle: withDeps(deps, receiveAndProcess),
    retry: withDeps(deps, retry),
  };
}
export type IpnListener = ReturnType<typeof createIpnListener>;
