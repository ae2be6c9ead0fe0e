import { eq, sql } from "drizzle-orm";
import { bankTransferSchema, noteSchema, resendSchema } from "#domain/customers.ts";
import { isErasedAddress } from "#domain/privacy.ts";
import { ERASED_NO_SALE } from "#domain/sale-choices.ts";
import { parseWith } from "#domain/validation.ts";
import { customerNotes, session, user } from "#server/db/schema.ts";
import { AppError, badRequest, conflict } from "#server/lib/errors.ts";
import { audited, type Actor } from "../activity";
import { jobKey } from "../jobs";

import { BUYER_FIELDS, CustomersDeps, ERASED_NO_GRANT, buyerOf, customerOf, iso, notStaff, orderOf_ } from "./model";

/**
 * Customers brought from a CSV file (decision 079), many in one statement: an address with no account gets one
 * (unconfirmed, no password: they set one with "Forgot password"; no mail is sent), matched by email whatever its
 * case; an existing customer keeps everything and only gets the file's name where theirs is blank. Staff addresses
 * are left alone. Answers the customers' ids by their lower-cased address, and which of them are new.
 */
export async function importMany(
  { db, now, webhooks }: CustomersDeps,
  rows: readonly { email: string; name: string; joinedAt: string | null }[],
): Promise<{ ids: Map<string, string>; created: Set<string> }> {
  if (rows.length === 0) return { ids: new Map(), created: new Set() };
  const emails = rows.map((r) => r.email.toLowerCase());
  const names = rows.map((r) => r.name);
  const joined = rows.map((r) => r.joinedAt);
  const t = now();
  return db.transaction(async (tx) => {
    const inserted = await tx.execute<{ id: string; email: string; name: string; created_at: string | Date }>(sql`
      insert into ${user} (id, name, email, email_verified, created_at, updated_at)
      select gen_random_uuid()::text, x.name, x.email, false, coalesce(x.joined, ${t.toISOString()}::timestamptz), ${t.toISOString()}::timestamptz
      from unnest(${sql.param(emails)}::text[], ${sql.param(names)}::text[], ${sql.param(joined)}::timestamptz[]) as x(email, name, joined)
      where not exists (select 1 from ${user} u where lower(u.email) = x.email)
      on conflict do nothing
      returning id, email, name, created_at`);
    // As a sign-up does: customer.created for each account made, with the same fields.
    await webhooks?.emitManyTx(
      tx,
      "customer.created",
      inserted.rows.map((r) => ({
        customer: {
          id: r.id,
          email: r.email,
          name: r.name,
          emailVerified: false,
          createdAt: new Date(r.created_at).toISOString(),
        },
      })),
    );
    await tx.execute(sql`
      update ${user} set name = x.name, updated_at = ${t.toISOString()}::timestamptz
      from unnest(${sql.param(emails)}::text[], ${sql.param(names)}::text[]) as x(email, name)
      where lower(${user.email}) = x.email and trim(${user.name}) = '' and x.name <> '' and ${notStaff}`);
    const found = await tx.execute<{ id: string; email: string }>(sql`
      select ${user.id} as id, lower(${user.email}) as email from ${user}
      where lower(${user.email}) = any(${sql.param(emails)}::text[]) and ${notStaff}`);
    return {
      ids: new Map(found.rows.map((r) => [r.email, r.id])),
      created: new Set(inserted.rows.map((r) => r.email)),
    };
  });
}

/**
 * Gives or extends the customer's membership by `days` (a zero-price order the timeline counts: orders.grant),
 * with a one-time key against a double post. Says the membership's new end. `imported`: a member brought from a
 * CSV file (decision 079), whose window ends exactly at the file's date, with no mail.
 */
export async function grant(
  { db, orders: orderCommands }: CustomersDeps,
  id: string,
  input: unknown,
  actor: Actor,
  idempotencyKey?: unknown,
  imported?: { endsAt: Date; packageName: string | null },
) {
  const customer = await customerOf(db, id);
  // An erased customer is nobody's membership any more (decision 063): days given would go to no one.
  if (isErasedAddress(customer.email)) throw conflict(ERASED_NO_GRANT);
  const r = await orderCommands.grant(id, input, actor, idempotencyKey, imported);
  return {
    orderId: r.order.id,
    orderNumber: r.order.number,
    created: r.created,
    membershipEnds: iso(r.membershipEnds),
  };
}

/**
 * A sale made by hand for the customer (orders.sell): paid already (its invoice issued) or left for them to pay with
 * the link mailed to them. The buyer's details a JSON body leaves out (name, address, country, VAT number) are
 * those of their latest order, as the page's form starts with them. Not for an erased customer: nobody is left to
 * sell to.
 */
export async function sell(
  { db, orders: orderCommands }: CustomersDeps,
  id: string,
  input: unknown,
  actor: Actor,
  idempotencyKey?: unknown,
) {
  const customer = await customerOf(db, id);
  if (isErasedAddress(customer.email)) throw conflict(ERASED_NO_SALE);
  const body = input && typeof input === "object" && !Array.isArray(input) ? (input as Record<string, unknown>) : null;
  const missing = body ? BUYER_FIELDS.filter((k) => body[k] === undefined) : [];
  let given = input;
  if (body && missing.length) {
    const latest = await buyerOf(db, customer);
    given = { ...Object.fromEntries(missing.map((k) => [k, latest[k] || undefined])), ...body };
  }
  const { order, created } = await orderCommands.sell(actor, id, given, idempotencyKey);
  return {
    orderId: order.id,
    orderNumber: order.number,
    created,
    paymentStatus: order.paymentStatus,
    orderStatus: order.orderStatus,
    invoiceNumber: order.invoiceNumber,
    amount: order.packagePrice,
    currency: order.currency,
    /** The VAT within the amount, in cents. */
    taxCents: order.taxCents,
    membershipValid: iso(order.membershipValid),
  };
}

/** Records a payment received outside PayPal (a bank transfer) on one of the customer's unpaid orders. */
export async function bankTransfer(
  { db, orders: orderCommands }: CustomersDeps,
  id: string,
  input: unknown,
  actor: Actor,
) {
  const parsed = parseWith(bankTransferSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  await customerOf(db, id);
  const order = await orderOf_(db, id, parsed.data.orderId);
  if (order.paymentStatus !== "UnPaid")
    throw new AppError(409, `Order ${order.number} is ${order.paymentStatus}: only an unpaid order can be paid.`, [
      { field: "orderId", message: "Not an unpaid order" },
    ]);
  const r = await orderCommands.payOutside(order.id, actor, parsed.data.reference, parsed.data.activate);
  return {
    modified: r.changed,
    orderNumber: order.number,
    membershipValid: iso(r.order.membershipValid),
  };
}

/**
 * Sends again the mail of one of the customer's orders: its confirmation (with the Pay Now link) while unpaid, its
 * payment receipt once paid. At most once a minute per order (a double post sends one).
 */
export async function resend({ db, mails, now }: CustomersDeps, id: string, input: unknown, actor: Actor) {
  const parsed = parseWith(resendSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const customer = await customerOf(db, id);
  const order = await orderOf_(db, id, parsed.data.orderId);
  const base = {
    orderId: order.id,
    orderNumber: order.number,
    customerName: order.customerName,
    packageName: order.packageName,
  };
  const minute = Math.floor(now().getTime() / 60_000);
  return audited(db, actor, "customer", async (tx, audit) => {
    let what: string;
    let sent: boolean;
    if (order.paymentStatus === "UnPaid") {
      what = `Order confirmation · ${order.number}`;
      sent = await mails.queue(
        tx,
        "orderPlaced",
        { ...base, amount: order.packagePrice },
        customer.email,
        jobKey("order", order.id, "placed-again", minute),
      );
    } else if (order.paymentStatus === "Paid" && order.paymentMethod !== "Gift") {
      what = `Payment received · ${order.number}`;
      const receipt = {
        ...base,
        amount: order.packagePrice,
        paidAt: order.paidAt ?? order.createdAt,
        txnId: order.txnId,
        activated: order.orderStatus === "Delivered",
        invoiceNumber: order.invoiceNumber,
      };
      sent = await mails.queue(
        tx,
        "paymentReceived",
        receipt,
        customer.email,
        jobKey("order", order.id, "paid-again", minute),
      );
    } else
      throw conflict(
        `Order ${order.number} is ${order.paymentStatus === "Paid" ? "a gift" : order.paymentStatus}: it has no mail to send again.`,
      );
    if (sent) await audit.updated(id, { mailSentAgain: null }, { mailSentAgain: what });
    return { sent, what };
  });
}

/**
 * Signs the customer out on every device (their sessions are deleted). Public pages may still show them the
 * signed-in header for up to 5 minutes (the page-role cookie, decision 025); every page and call that needs the
 * account checks the session and finds none.
 */
export async function signOutEverywhere(
  { db }: CustomersDeps,
  id: string,
  actor: Actor,
): Promise<{ sessions: number }> {
  await customerOf(db, id);
  return audited(db, actor, "customer", async (tx, audit) => {
    const gone = await tx.delete(session).where(eq(session.userId, id)).returning({ id: session.id });
    await audit.updated(id, { sessions: `${gone.length} signed in` }, { sessions: "Signed out everywhere" });
    return { sessions: gone.length };
  });
}

/** Saves the private note (empty removes it); the log keeps each version. */
export async function setNote(
  { db, now }: CustomersDeps,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ modified: boolean }> {
  const parsed = parseWith(noteSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  await customerOf(db, id);
  const text = parsed.data.note;
  return audited(db, actor, "customer", async (tx, audit) => {
    const [before] = await tx.select().from(customerNotes).where(eq(customerNotes.userId, id)).for("update");
    if ((before?.note ?? "") === text) return { modified: false };
    if (text === "") await tx.delete(customerNotes).where(eq(customerNotes.userId, id));
    else
      await tx
        .insert(customerNotes)
        .values({ userId: id, note: text, updatedAt: now() })
        .onConflictDoUpdate({ target: customerNotes.userId, set: { note: text, updatedAt: now() } });
    await audit.updated(id, { note: before?.note ?? "" }, { note: text });
    return { modified: true };
  });
}
