import type { Currency } from "../../domain/currency";
import { and, asc, eq, inArray, ne, notInArray, sql } from "drizzle-orm";
import { membershipTimeline } from "../../domain/membership";
import {
  DELETE_MESSAGES,
  deleteAccountSchema,
  ERASED_NAME,
  ERASURE_ENTITY,
  erasedEmail,
  isErasedAddress,
  isUserId,
  withoutPayer,
  withoutPerson,
} from "../../domain/privacy";
import { parseWith } from "../../domain/validation";
import type { Db } from "../db/client";
import {
  account,
  activityLog,
  adminUsers,
  consents,
  customerNotes,
  customerTotals,
  membershipReminders,
  messages,
  orders,
  paymentNotices,
  paymentRefunds,
  session,
  subscribers,
  subscriptions,
  twoFactor,
  user,
  verification,
} from "../db/schema";
import { AppError, badRequest, conflict, notFound, tooMany } from "../lib/errors";
import type { WebhooksService } from "./webhooks";
import { audited, type Actor } from "./activity";
import { JOBS_SCHEMA, MAIL_QUEUE, type Tx } from "./jobs";
import type { CreditNotesService } from "./credit-notes";
import type { OrdersService } from "./orders";
import { IPN_PROVIDER, IPN_RECEIVED, IPN_UNVERIFIED } from "./payments/paypal/ipn";
import type { RateLimiter, RateLimitRule } from "./rate-limit";

/** Wrong passwords (or codes) on the deletion form, per person: then a wait. */
export const DELETE_LIMIT = {
  name: "account-delete:failures",
  limit: 10,
  windowMs: 15 * 60_000,
} satisfies RateLimitRule;

/** What the last Admin is told when they try to delete their own account. */
export const LAST_ADMIN_DELETE =
  "You are the last Admin: make someone else an Admin on the users screen before you delete your account.";
/** Staff are taken off the staff before an admin erases them from the back office. */
export const STAFF_NOT_ERASED =
  "This person is on the staff. Remove them on the users screen first, then erase their data here.";
export const ALREADY_ERASED = "This customer's data has already been erased.";

/** The document "Download my data" gives: one person's records, each list read with one query. */
export interface DataExport {
  format: "atelier-north/personal-data@1";
  exportedAt: string;
  profile: {
    name: string;
    email: string;
    emailVerified: boolean;
    createdAt: string;
    staffRole: string | null;
    twoFactorEnabled: boolean;
  };
  orders: {
    number: string;
    packageName: string;
    amount: number;
    currency: Currency;
    /** The VAT within the amount and the VAT number given with the order (issue 35). */
    vat: number;
    vatNumber: string | null;
    validityDays: number;
    paymentStatus: string;
    orderStatus: string;
    placedAt: string;
    paidAt: string | null;
    deliveredAt: string | null;
    paypalTransactionId: string | null;
    /** How it was paid (PayPal, Bank transfer, By hand, Gift; null while unpaid) and the transfer's reference or the gift's reason. */
    paymentMethod: string | null;
    paymentReference: string | null;
    invoiceNumber: string | null;
    invoicedAt: string | null;
    /** A discount code used on the order, the price before it and the discount (none: null, null, 0). */
    discountCode: string | null;
    priceBefore: number | null;
    discountAmount: number;
    name: string;
    email: string;
    address: string;
    country: string;
  }[];
  /** The days each paid and delivered order gives, laid end to end (domain/membership.ts, the one timeline). */
  membershipWindows: { orderNumber: string; packageName: string; starts: string; ends: string }[];
  /** PayPal subscriptions (renewals) they signed up for. */
  subscriptions: {
    reference: string;
    orderNumber: string;
    status: string;
    signedUpAt: string | null;
    cancelledAt: string | null;
    cancelledBy: "PayPal" | "The studio" | null;
    endedAt: string | null;
  }[];
  /** Each discount code used, with the order it was used on. */
  discountCodes: { code: string; orderNumber: string; discount: number; usedAt: string }[];
  /** The studio's private note on their customer record (null: none). */
  staffNote: { note: string; updatedAt: string } | null;
  newsletter: {
    email: string;
    state: string;
    subscribedAt: string;
    confirmedAt: string | null;
    unsubscribedAt: string | null;
  }[];
  messages: { sentAt: string; name: string; email: string; phone: string; subject: string; message: string }[];
  consents: { document: string; version: string; acceptedAt: string }[];
  sessions: { device: string; ipAddress: string; signedInAt: string; lastSeenAt: string; expiresAt: string }[];
}

/** What the admin's confirmation page shows of a customer before erasing them. */
export interface ErasureSubject {
  id: string;
  name: string;
  email: string;
  createdAt: string;
  orders: number;
  /** Of those, orders still unpaid (cancelled by the erasure). */
  unpaidOrders: number;
  staffRole: string | null;
  erased: boolean;
}

/** How the erasure was asked for: it goes in the activity log (and nothing about the person does). */
type Request = "own account" | "by mail";

const iso = (d: Date) => d.toISOString();
const isoOrNull = (d: Date | null) => d?.toISOString() ?? null;

/**
 * The rights of access and erasure (UK GDPR articles 15 and 17; decision 045), in one place: "Download my data" reads a
 * person's records; erasure removes or anonymises them everywhere, in one transaction, and keeps what the agency must
 * keep for its accounts (their orders' numbers, amounts, dates, statuses and PayPal transaction ids, anonymised).
 */
export function createPrivacyService(deps: {
  db: Db;
  orders: Pick<OrdersService, "anonymiseTx">;
  /** Their credit notes are kept like their invoices; the studio's reason on them is forgotten (decision 073). */
  creditNotes: Pick<CreditNotesService, "forgetWordsTx">;
  limiter: RateLimiter;
  /**
   * Who the person is (server/services/two-factor.ts): their password checked, whether their second factor is on, and
   * a code checked (and spent).
   */
  twoFactor: {
    passwordMatches(userId: string, password: string): Promise<boolean>;
    state(userId: string): Promise<{ enabled: boolean }>;
    checkCode(userId: string, code: string): Promise<boolean>;
  };
  /** How many backups are kept (BACKUP_KEEP, one a day): they hold an erased person's data until replaced. */
  backupsKept: number;
  now?: () => Date;
  /** customer.erased, in the erasure's transaction; the webhook deliveries that name them go (decision 045). */
  webhooks?: Pick<WebhooksService, "emitTx" | "forgetTx">;
}) {
  const { db, limiter } = deps;
  const now = deps.now ?? (() => new Date());

  async function personOf(userId: string) {
    if (!isUserId(userId)) throw notFound("No customer has this id.");
    const [row] = await db
      .select({
        id: user.id,
        name: user.name,
        email: user.email,
        emailVerified: user.emailVerified,
        createdAt: user.createdAt,
        twoFactorEnabled: user.twoFactorEnabled,
        staffRole: sql<
          string | null
        >`(select a.user_role from ${adminUsers} a where lower(a.user_email) = lower(${user.email}))`,
      })
      .from(user)
      .where(eq(user.id, userId));
    if (!row) throw notFound("No customer has this id.");
    return row;
  }

  const refused = (field: string, message: string) => new AppError(400, message, [{ field, message }]);

  /**
   * Everything erased or anonymised, in `tx` (see decision 045, table by table). `request` and `actor` go in the log;
   * the person's own erasure is logged under the placeholder name, since their address is what is being erased.
   */
  async function eraseTx(tx: Tx, userId: string, actor: Actor, request: Request): Promise<void> {
    const [person] = await tx
      .select({ id: user.id, name: user.name, email: user.email })
      .from(user)
      .where(eq(user.id, userId))
      .for("update");
    if (!person) throw notFound("No customer has this id.");
    if (isErasedAddress(person.email)) throw conflict(ALREADY_ERASED);
    const email = person.email.toLowerCase();

    // Staff: the admin list's own lock and rule (the last Admin stays); the back office erases customers only.
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('admin_users'))`);
    const [listed] = await tx
      .select({ id: adminUsers.id, role: adminUsers.userRole })
      .from(adminUsers)
      .where(sql`lower(${adminUsers.userEmail}) = ${email}`);
    if (listed) {
      if (request === "by mail") throw conflict(STAFF_NOT_ERASED);
      if (listed.role === "Admin") {
        const [{ n }] = (await tx
          .select({ n: sql<number>`count(*)::int` })
          .from(adminUsers)
          .where(eq(adminUsers.userRole, "Admin"))) as [{ n: number }];
        if (n <= 1) throw conflict(LAST_ADMIN_DELETE);
      }
      await tx.delete(adminUsers).where(eq(adminUsers.id, listed.id));
    }

    // Orders: kept for the accounts, anonymised by their one writer; their PayPal notifications lose the payer.
    const { orders: orderCount } = await deps.orders.anonymiseTx(tx, userId, actor, {
      name: person.name,
      email,
    });
    // Their payment notices: an IPN message (Payments Standard, a form body) loses the payer's fields and keeps the rest;
    // a REST webhook's body (the payer's name and email in PayPal's JSON) goes, its outcome stays. One not yet
    // processed keeps its body: PayPal's postback must verify it exactly as it came.
    if (orderCount) {
      const ofCustomer = inArray(
        paymentNotices.orderId,
        tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId)),
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

    // Their refunds' words (decision 067): the note to them and the studio's reason may name them; amounts stay.
    if (orderCount)
      await tx
        .update(paymentRefunds)
        .set({ note: null, reason: null })
        .where(
          inArray(paymentRefunds.orderId, tx.select({ id: orders.id }).from(orders).where(eq(orders.userId, userId))),
        );

    if (orderCount) await deps.creditNotes.forgetWordsTx(tx, userId);

    // Signing in: sessions, the password, pending links, the second factor, the consents (decision 037: gone with it).
    await tx.delete(session).where(eq(session.userId, userId));
    await tx.delete(account).where(eq(account.userId, userId));
    await tx
      .delete(verification)
      .where(
        sql`position(${userId} in ${verification.value}) > 0 or position(${email} in lower(${verification.identifier})) > 0 or position(${email} in lower(${verification.value})) > 0`,
      );
    await tx.delete(twoFactor).where(eq(twoFactor.userId, userId));
    await tx.delete(consents).where(eq(consents.userId, userId));
    await tx.delete(membershipReminders).where(eq(membershipReminders.userId, userId));
    // The staff's notes about them (the customer record).
    await tx.delete(customerNotes).where(eq(customerNotes.userId, userId));

    // What they sent us under their address.
    await tx.delete(subscribers).where(sql`lower(${subscribers.subemail}) = ${email}`);
    await tx.delete(messages).where(sql`lower(${messages.email}) = ${email}`);

    // Counters keyed by their address (sign-in failures, reset requests) or their id.
    await tx.execute(sql`
      delete from rate_limiter
      where right(key, ${email.length + 1}) in (${":" + email}, ${"|" + email})
        or right(key, ${userId.length + 1}) = ${":" + userId}`);

    // Mails not sent yet, and those kept in the queue's history, to or about them.
    await tx.execute(sql`
      delete from ${sql.identifier(JOBS_SCHEMA)}.job
      where name = ${MAIL_QUEUE} and position(${email} in lower(data::text)) > 0`);

    // The activity log: their own entries under the placeholder, and their address (or name) in any entry's values.
    await anonymiseLogTx(tx, userId, email, person.name.trim());

    // The account stays as the erased orders' owner (their windows stay one customer's), with nothing of the person.
    await tx
      .update(user)
      .set({
        name: "",
        email: erasedEmail(userId),
        emailVerified: false,
        image: null,
        twoFactorEnabled: false,
        updatedAt: now(),
      })
      .where(eq(user.id, userId));
    // No longer anyone's membership (decision 063): the figures keep the money, the membership columns stay empty, so
    // that no list, count or filter takes them for a member; the orders' triggers keep it so.
    await tx
      .insert(customerTotals)
      .values({ userId, erased: true })
      .onConflictDoUpdate({
        target: customerTotals.userId,
        set: { erased: true, membershipEnds: null, waiting: 0 },
      });

    // Webhooks (docs/decisions/078): the deliveries that carry their address go, and receivers hear of the erasure.
    await deps.webhooks?.forgetTx(tx, email);
    await deps.webhooks?.emitTx(tx, "customer.erased", { customer: { id: userId, erasedAt: now().toISOString() } });

    // The erasure itself: who asked and how, and no erased value.
    await audited(tx as unknown as Db, actor, ERASURE_ENTITY, (_tx, audit) =>
      audit.deleted(userId, {
        request: request === "by mail" ? "By mail, erased in the back office" : "From their own account",
        ordersKept: orderCount,
      }),
    );
  }

  /** Rewrites every string in a log entry's values that holds the address (or is the name) as the placeholder. */
  async function anonymiseLogTx(tx: Tx, userId: string, email: string, name: string) {
    await tx
      .update(activityLog)
      .set({ actorEmail: ERASED_NAME })
      .where(sql`${activityLog.actorId} = ${userId} or lower(${activityLog.actorEmail}) = ${email}`);
    const rows = await tx
      .select({ id: activityLog.id, changes: activityLog.changes })
      .from(activityLog)
      .where(
        sql`position(${email} in lower(${activityLog.changes}::text)) > 0 or (${activityLog.actorId} = ${userId} and length(${name}) >= 3)`,
      );
    const scrub = (value: unknown): unknown => {
      if (typeof value === "string") return withoutPerson(value, { name, email });
      if (Array.isArray(value)) return value.map(scrub);
      if (value && typeof value === "object")
        return Object.fromEntries(Object.entries(value).map(([k, v]) => [k, scrub(v)]));
      return value;
    };
    const changed = rows
      .map((r) => ({ id: r.id, before: JSON.stringify(r.changes), changes: scrub(r.changes) }))
      .filter((r) => JSON.stringify(r.changes) !== r.before)
      .map(({ id, changes }) => ({ id, changes }));
    if (changed.length)
      await tx.execute(sql`
        update ${activityLog} set changes = v.changes
        from jsonb_to_recordset(${JSON.stringify(changed)}::jsonb) as v(id uuid, changes jsonb)
        where ${activityLog.id} = v.id`);
  }

  return {
    backupsKept: deps.backupsKept,

    /** "Download my data": one document of the person's records (nine reads, each by an index). */
    async exportData(userId: string): Promise<DataExport> {
      const person = await personOf(userId);
      const email = person.email.toLowerCase();
      const [orderRows, subscriberRows, messageRows, consentRows, sessionRows, subscriptionRows, [note]] =
        await Promise.all([
          db.select().from(orders).where(eq(orders.userId, userId)).orderBy(asc(orders.createdAt), asc(orders.id)),
          db
            .select()
            .from(subscribers)
            .where(sql`lower(${subscribers.subemail}) = ${email}`),
          db
            .select()
            .from(messages)
            .where(sql`lower(${messages.email}) = ${email}`)
            .orderBy(asc(messages.createdAt)),
          db.select().from(consents).where(eq(consents.userId, userId)).orderBy(asc(consents.acceptedAt)),
          db.select().from(session).where(eq(session.userId, userId)).orderBy(asc(session.createdAt)),
          db
            .select()
            .from(subscriptions)
            .where(eq(subscriptions.userId, userId))
            .orderBy(asc(subscriptions.createdAt), asc(subscriptions.id)),
          db.select().from(customerNotes).where(eq(customerNotes.userId, userId)),
        ]);
      const byId = new Map(orderRows.map((o) => [o.id, o]));
      return {
        format: "atelier-north/personal-data@1",
        exportedAt: iso(now()),
        profile: {
          name: person.name,
          email: person.email,
          emailVerified: person.emailVerified,
          createdAt: iso(person.createdAt),
          staffRole: person.staffRole,
          twoFactorEnabled: person.twoFactorEnabled,
        },
        orders: orderRows.map((o) => ({
          number: o.number,
          packageName: o.packageName,
          amount: o.packagePrice,
          currency: o.currency,
          vat: o.taxCents / 100,
          vatNumber: o.customerVatNumber,
          validityDays: o.packageValidity,
          paymentStatus: o.paymentStatus,
          orderStatus: o.orderStatus,
          placedAt: iso(o.createdAt),
          paidAt: isoOrNull(o.paidAt),
          deliveredAt: isoOrNull(o.deliveredAt),
          paypalTransactionId: o.txnId,
          paymentMethod: o.paymentMethod,
          paymentReference: o.paymentReference,
          invoiceNumber: o.invoiceNumber,
          invoicedAt: isoOrNull(o.invoicedAt),
          discountCode: o.discountCode,
          priceBefore: o.priceBefore,
          discountAmount: o.discountAmount,
          name: o.customerName,
          email: o.customerEmail,
          address: o.customerAddress,
          country: o.customerCountry,
        })),
        membershipWindows: membershipTimeline(orderRows).map((w) => ({
          orderNumber: byId.get(w.orderId)!.number,
          packageName: byId.get(w.orderId)!.packageName,
          starts: iso(w.starts),
          ends: iso(w.ends),
        })),
        subscriptions: subscriptionRows.map((r) => ({
          reference: r.subscrId,
          orderNumber: byId.get(r.orderId)?.number ?? "",
          status: r.status,
          signedUpAt: isoOrNull(r.signedUpAt),
          cancelledAt: isoOrNull(r.cancelledAt),
          // Who at the studio cancelled is the staff's data, not the customer's: only that the studio did.
          cancelledBy: r.cancelledBy === null ? null : r.cancelledBy === "PayPal" ? "PayPal" : "The studio",
          endedAt: isoOrNull(r.endedAt),
        })),
        discountCodes: orderRows
          .filter((o) => o.discountCode !== null)
          .map((o) => ({
            code: o.discountCode!,
            orderNumber: o.number,
            discount: o.discountAmount,
            usedAt: iso(o.createdAt),
          })),
        staffNote: note ? { note: note.note, updatedAt: iso(note.updatedAt) } : null,
        newsletter: subscriberRows.map((s) => ({
          email: s.subemail,
          state: s.state,
          subscribedAt: iso(s.subscribedAt),
          confirmedAt: isoOrNull(s.confirmedAt),
          unsubscribedAt: isoOrNull(s.unsubscribedAt),
        })),
        messages: messageRows.map((m) => ({
          sentAt: iso(m.createdAt),
          name: m.name,
          email: m.email,
          phone: m.number,
          subject: m.subject,
          message: m.message,
        })),
        consents: consentRows.map((c) => ({ document: c.document, version: c.version, acceptedAt: iso(c.acceptedAt) })),
        sessions: sessionRows.map((s) => ({
          device: s.userAgent ?? "",
          ipAddress: s.ipAddress ?? "",
          signedInAt: iso(s.createdAt),
          lastSeenAt: iso(s.updatedAt),
          expiresAt: iso(s.expiresAt),
        })),
      };
    },

    /** Whether deleting this person's account asks for their second factor's code too. */
    async needsCode(userId: string): Promise<boolean> {
      return (await deps.twoFactor.state(userId)).enabled;
    },

    /**
     * "Delete my account": the current password (and the second factor's code when it is on) confirm it; then
     * everything is erased in one transaction. Wrong answers count against the person (DELETE_LIMIT).
     */
    async deleteOwnAccount(viewer: { id: string }, input: unknown): Promise<void> {
      const parsed = parseWith(deleteAccountSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const { password, code } = parsed.data;
      const failures = await limiter.count(DELETE_LIMIT, viewer.id);
      if (failures.count >= DELETE_LIMIT.limit) throw tooMany(DELETE_MESSAGES.tooMany);
      if (!(await deps.twoFactor.passwordMatches(viewer.id, password))) {
        await limiter.add(DELETE_LIMIT, viewer.id);
        throw refused("password", DELETE_MESSAGES.passwordWrong);
      }
      if (await this.needsCode(viewer.id)) {
        if (!code) throw refused("code", DELETE_MESSAGES.codeRequired);
        if (!(await deps.twoFactor.checkCode(viewer.id, code))) throw refused("code", DELETE_MESSAGES.codeWrong);
      }
      await db.transaction((tx) => eraseTx(tx, viewer.id, { id: viewer.id, email: ERASED_NAME }, "own account"));
    },

    /** The admin's confirmation page: who this is, what will be kept, and whether they may be erased here. */
    async subject(userId: string): Promise<ErasureSubject> {
      const person = await personOf(userId);
      const [counts] = await db
        .select({
          all: sql<number>`count(*)::int`,
          unpaid: sql<number>`(count(*) filter (where ${orders.paymentStatus} = 'UnPaid'))::int`,
        })
        .from(orders)
        .where(eq(orders.userId, userId));
      return {
        id: person.id,
        name: person.name,
        email: person.email,
        createdAt: iso(person.createdAt),
        orders: counts?.all ?? 0,
        unpaidOrders: counts?.unpaid ?? 0,
        staffRole: person.staffRole,
        erased: isErasedAddress(person.email),
      };
    },

    /** An admin erases a customer at their request (by mail): never a staff member (409), nor twice (409). */
    async eraseCustomer(userId: string, actor: Actor): Promise<void> {
      if (!isUserId(userId)) throw notFound("No customer has this id.");
      await db.transaction((tx) => eraseTx(tx, userId, actor, "by mail"));
    },
  };
}

export type PrivacyService = ReturnType<typeof createPrivacyService>;
