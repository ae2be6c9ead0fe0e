import { and, eq, inArray, isNotNull, ne, notInArray, sql } from "drizzle-orm";
import { withoutPayer, type Person } from "#domain/privacy.ts";
import type { Db } from "#server/db/client.ts";
import { orders, paymentNotices } from "#server/db/schema.ts";
import { isId } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import { handle, type HandlerContext } from "./handlers";
import type { Notice, PaymentProvider, Received } from "./provider";
import { moneyCents } from "#domain/payment-check.ts";
import type { Tx } from "../jobs";
import { IPN_PROVIDER, IPN_RECEIVED, IPN_UNVERIFIED } from "./paypal/ipn";

/** What the webhook endpoint answers: 400 malformed or unsigned, 401 forged, 200 handled, 5xx ours (send again). */
export interface ControllerAnswer {
  status: 200 | 400 | 401 | 500 | 503;
  body: { received: boolean; outcome?: string; error?: string };
}

const STATUS: Record<"unsigned" | "malformed" | "forged", 400 | 401> = { unsigned: 400, malformed: 400, forged: 401 };

/** The money a notice moves, as stored with it (a refund's counts toward the refunds of its payment). */
const amountOf = (notice: Notice) => {
  const money = "amount" in notice ? notice.amount : null;
  const cents = money ? moneyCents(money.value) : null;
  return money && cents !== null ? { amount: cents / 100, currency: money.currency } : {};
};

/** The event id a notification claims (stored with a refused one, never as its unique event id). */
function claimedId(rawBody: string): string | null {
  try {
    const id = (JSON.parse(rawBody) as { id?: unknown }).id;
    return typeof id === "string" ? id.slice(0, 200) : null;
  } catch {
    return null;
  }
}

export interface WebhookControllerDeps {
  db: Db;
  provider: PaymentProvider;
  context: HandlerContext;
  logger: Logger;
  now: () => Date;
}

/** The columns every stored notification has: who sent it, as it came, when. */
type Arrival = Required<
  Pick<typeof paymentNotices.$inferInsert, "provider" | "raw" | "headers" | "receivedAt" | "updatedAt">
>;

/** Takes the event to apply: a new row, or one a failed attempt left. Null when it is (being) applied elsewhere. */
async function claim(
  { db, provider, now }: WebhookControllerDeps,
  values: typeof paymentNotices.$inferInsert,
): Promise<string | null> {
  const name = provider.name;
  const [made] = await db
    .insert(paymentNotices)
    .values(values)
    .onConflictDoNothing({ target: [paymentNotices.provider, paymentNotices.eventId] })
    .returning({ id: paymentNotices.id });
  if (made) return made.id;
  const [retaken] = await db
    .update(paymentNotices)
    .set({
      outcome: "received",
      reason: "received again after a failure; being applied",
      timesReceived: sql`${paymentNotices.timesReceived} + 1`,
      updatedAt: now(),
    })
    .where(
      and(
        eq(paymentNotices.provider, name),
        eq(paymentNotices.eventId, values.eventId!),
        eq(paymentNotices.outcome, "failed"),
      ),
    )
    .returning({ id: paymentNotices.id });
  if (retaken) return retaken.id;
  await db
    .update(paymentNotices)
    .set({ timesReceived: sql`${paymentNotices.timesReceived} + 1`, updatedAt: now() })
    .where(and(eq(paymentNotices.provider, name), eq(paymentNotices.eventId, values.eventId!)));
  return null;
}

/** A claimed notice handed to its handler, and its outcome stored: `failed` when we failed (applied again later). */
async function apply(deps: WebhookControllerDeps, id: string, notice: Notice): Promise<string> {
  const { logger } = deps;
  const name = deps.provider.name;
  try {
    const done = await handle(notice, deps.context);
    await settle(deps, id, done.outcome, done.reason, done.orderId ?? notice.orderId);
    const fields = { provider: name, type: notice.type, orderId: done.orderId, reason: done.reason };
    if (done.outcome === "applied" || done.outcome === "duplicate")
      logger.info(fields, `payment notice ${done.outcome}`);
    else logger.warn(fields, `payment notice ${done.outcome}`);
    return done.outcome;
  } catch (error) {
    logger.error({ error, provider: name, type: notice.type }, "payment notice failed");
    await settle(
      deps,
      id,
      "failed",
      error instanceof Error ? error.message.slice(0, 500) : String(error),
      notice.orderId,
    ).catch(() => undefined);
    return "failed";
  }
}

async function settle(
  { db, now }: WebhookControllerDeps,
  id: string,
  outcome: string,
  reason: string,
  orderId: string | null,
) {
  await db
    .update(paymentNotices)
    .set({ outcome, reason, orderId: orderId && isId(orderId) ? orderId : null, updatedAt: now() })
    .where(eq(paymentNotices.id, id));
}

async function receive(
  deps: WebhookControllerDeps,
  request: {
    headers: Record<string, string | undefined>;
    rawBody: string;
  },
): Promise<ControllerAnswer> {
  const { provider, logger, now } = deps;
  const name = provider.name;
  const headers = Object.fromEntries(
    Object.entries(request.headers).filter((e): e is [string, string] => typeof e[1] === "string"),
  );
  const base: Arrival = { provider: name, raw: request.rawBody, headers, receivedAt: now(), updatedAt: now() };
  let received: Received;
  try {
    received = await provider.receive(request);
  } catch (error) {
    // The provider could not be asked (its verification call is down): it sends the notification again.
    logger.warn({ error, provider: name }, "payment webhook not verifiable now");
    return { status: 503, body: { received: false, error: "The notification cannot be verified now." } };
  }
  if (received.verdict === "unsigned" || received.verdict === "malformed" || received.verdict === "forged")
    return reject(deps, base, received);
  if (received.verdict === "ignored") return ignore(deps, base, received);
  return accept(deps, base, received.notice);
}

/** An unsigned, malformed or forged notification: stored as it came, with what it claims to be, and refused. */
async function reject(
  { db, logger }: WebhookControllerDeps,
  base: Arrival,
  received: Extract<Received, { verdict: "unsigned" | "malformed" | "forged" }>,
): Promise<ControllerAnswer> {
  await db.insert(paymentNotices).values({
    ...base,
    claimedEventId: claimedId(base.raw),
    verdict: received.verdict,
    outcome: "rejected",
    reason: received.reason,
  });
  logger.warn(
    { provider: base.provider, verdict: received.verdict, reason: received.reason },
    "payment webhook rejected",
  );
  return { status: STATUS[received.verdict], body: { received: false, error: received.reason } };
}

/** A verified event we do not act on: stored once under its id (a resend counted), answered 200. */
async function ignore(
  { db }: WebhookControllerDeps,
  base: Arrival,
  received: Extract<Received, { verdict: "ignored" }>,
): Promise<ControllerAnswer> {
  const reason = `${received.eventType} is not an event we act on`;
  await db
    .insert(paymentNotices)
    .values({
      ...base,
      eventId: received.eventId,
      eventType: received.eventType,
      verdict: "ignored",
      outcome: "ignored",
      reason,
    })
    .onConflictDoUpdate({
      target: [paymentNotices.provider, paymentNotices.eventId],
      set: { timesReceived: sql`${paymentNotices.timesReceived} + 1` },
    });
  return { status: 200, body: { received: true, outcome: "ignored" } };
}

/** A verified notice: stored once under its event id, and applied by the request that stored (or retook) it. */
async function accept(deps: WebhookControllerDeps, base: Arrival, notice: Notice): Promise<ControllerAnswer> {
  const id = await claim(deps, {
    ...base,
    eventId: notice.eventId,
    claimedEventId: notice.eventId,
    noticeType: notice.type,
    orderId: notice.orderId && isId(notice.orderId) ? notice.orderId : null,
    subscriptionId: "subscriptionId" in notice ? notice.subscriptionId : null,
    notice: notice as unknown as Record<string, unknown>,
    ...amountOf(notice),
    verdict: "accepted",
    outcome: "received",
    reason: "being applied",
  });
  if (!id) return { status: 200, body: { received: true, outcome: "duplicate" } };
  const outcome = await apply(deps, id, notice);
  return outcome === "failed"
    ? { status: 500, body: { received: false, error: "The notification could not be applied; send it again." } }
    : { status: 200, body: { received: true, outcome } };
}

/**
 * Applies again the notices left `received` by a crash between storing and handling (older than a minute, so one
 * being applied now is left alone): the notice stored with the row goes to its handler, taken by one instance
 * only. The recurring job calls this beside the IPN listener's retry (decision 069).
 */
async function sweep(deps: WebhookControllerDeps): Promise<{ swept: number }> {
  const { db, now } = deps;
  const stale = await db
    .select({ id: paymentNotices.id, notice: paymentNotices.notice })
    .from(paymentNotices)
    .where(
      and(
        eq(paymentNotices.provider, deps.provider.name),
        eq(paymentNotices.verdict, "accepted"),
        eq(paymentNotices.outcome, "received"),
        isNotNull(paymentNotices.notice),
        sql`${paymentNotices.updatedAt} < now() - interval '1 minute'`,
      ),
    )
    .orderBy(paymentNotices.receivedAt)
    .limit(50);
  let swept = 0;
  for (const row of stale) {
    const [taken] = await db
      .update(paymentNotices)
      .set({ reason: "left unapplied; being applied again", updatedAt: now() })
      .where(
        and(
          eq(paymentNotices.id, row.id),
          eq(paymentNotices.outcome, "received"),
          sql`${paymentNotices.updatedAt} < now() - interval '1 minute'`,
        ),
      )
      .returning({ id: paymentNotices.id });
    if (!taken) continue;
    await apply(deps, row.id, row.notice as unknown as Notice);
    swept++;
  }
  return { swept };
}

/**
 * A provider's webhook controller (issue 34 part 1, decision 065): verifies and parses through the provider, stores the
 * notice once, and hands it to its type's handler. It knows no notice type. A verified event is stored under its
 * unique (provider, event id): only the request whose insert made the row runs the handler, so a resend, or two
 * instances receiving it at once, apply it once; a handler that failed leaves `failed`, and the provider's resend
 * applies it then.
 */
export function createWebhookController(deps: WebhookControllerDeps) {
  return {
    receive: withDeps(deps, receive),
    sweep: withDeps(deps, sweep),
  };
}
export type WebhookController = ReturnType<typeof createWebhookController>;

/**
 * Forgets the payer in the payment notices of a person's orders (decisions 045, 069, 086): an IPN message (Payments
 * Standard, a form body) loses the payer's fields and keeps the payment's (domain/privacy.ts IPN_FIELDS_KEPT); a REST
 * webhook's body (the payer's name and email in PayPal's JSON) goes, its outcome stays. One not yet processed keeps
 * its body: PayPal's postback must verify it exactly as it came.
 */
export async function forgetPayer(tx: Tx, person: Person): Promise<void> {
  const ofCustomer = inArray(
    paymentNotices.orderId,
    tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, person.userId)),
  );
  const events = await tx
    .select({ id: paymentNotices.id, raw: paymentNotices.raw })
    .from(paymentNotices)
    .where(
      and(
        ofCustomer,
        eq(paymentNotices.provider, IPN_PROVIDER),
        notInArray(paymentNotices.outcome, [IPN_RECEIVED, IPN_UNVERIFIED]),
      ),
    );
  const changed = events
    .map((e) => ({ id: e.id, raw: withoutPayer(e.raw) }))
    .filter((e, i) => e.raw !== events[i]!.raw);
  if (changed.length)
    await tx.execute(sql`
      update ${paymentNotices} set raw = v.raw
      from jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) as v(id uuid, raw text)
      where ${paymentNotices.id} = v.id`);
  await tx
    .update(paymentNotices)
    .set({ raw: "", headers: {}, notice: null })
    .where(and(ofCustomer, ne(paymentNotices.provider, IPN_PROVIDER), ne(paymentNotices.outcome, "received")));
}
