import type { Currency } from "#domain/currency.ts";
import { and, asc, eq, ne, sql } from "drizzle-orm";
import { membershipTimeline } from "#domain/membership.ts";
import {
  DELETE_MESSAGES,
  deleteAccountSchema,
  ERASED_NAME,
  ERASURE_ENTITY,
  isErasedAddress,
  isUserId,
  LAST_ADMIN_DELETE,
  personOf,
  STAFF_NOT_ERASED,
  type Person,
} from "#domain/privacy.ts";
import { parseWith } from "#domain/validation.ts";
import type { Db } from "../db/client";
import {
  adminUsers,
  consents,
  customerNotes,
  messages,
  orders,
  session,
  subscribers,
  subscriptions,
  user,
} from "../db/schema";
import { AppError, badRequest, conflict, notFound, tooMany } from "../lib/errors";
import type { WebhooksService } from "./webhooks";
import { audited, type Actor } from "./activity";
import type { Tx } from "./jobs";
import type { CreditNotesService } from "./credit-notes";
import { forgetters } from "./forgetters";
import type { OrdersService } from "./orders";
import type { RateLimiter, RateLimitRule } from "./rate-limit";

/** Wrong passwords (or codes) on the deletion form, per person: then a wait. */
export const DELETE_LIMIT = {
  name: "account-delete:failures",
  limit: 10,
  windowMs: 15 * 60_000,
} satisfies RateLimitRule;

export { LAST_ADMIN_DELETE, STAFF_NOT_ERASED };
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
  /** Where the member imports' uploaded files are (DATA_DIR/imports): a file holding the person goes (decision 086). */
  importsDir: string;
  /** How many backups are kept (BACKUP_KEEP, one a day): they hold an erased person's data until replaced. */
  backupsKept: number;
  now?: () => Date;
  /** customer.erased, in the erasure's transaction (decision 078). */
  webhooks?: Pick<WebhooksService, "emitTx">;
}) {
  const { db, limiter } = deps;
  const now = deps.now ?? (() => new Date());
  const registry = forgetters(deps);

  async function accountOf(userId: string) {
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
   * Who is erased, read in `tx` with their account row locked: the account, and the addresses and names on their
   * orders (an older address now another account's is left out). Refused for an unknown id (404) or twice (409).
   */
  async function personTx(tx: Tx, userId: string): Promise<Person> {
    const [account] = await tx
      .select({ id: user.id, name: user.name, email: user.email })
      .from(user)
      .where(eq(user.id, userId))
      .for("update");
    if (!account) throw notFound("No customer has this id.");
    if (isErasedAddress(account.email)) throw conflict(ALREADY_ERASED);
    const onOrders = await tx
      .selectDistinct({ email: orders.customerEmail, name: orders.customerName })
      .from(orders)
      .where(eq(orders.userId, userId));
    const older = [...new Set(onOrders.map((o) => o.email.trim().toLowerCase()))];
    const others = older.length
      ? await tx
          .select({ email: sql<string>`lower(${user.email})` })
          .from(user)
          .where(and(ne(user.id, userId), sql`lower(${user.email}) = any(${sql.param(older)}::text[])`))
      : [];
    return personOf(account, onOrders, new Set(others.map((o) => o.email)));
  }

  /**
   * Everything erased or anonymised, in `tx` (decisions 045 and 086): each store of personal data forgets the person
   * through its own module's forgetter, in the registry's order. `request` and `actor` go in the log; the person's own
   * erasure is logged under the placeholder name, since their address is what is being erased.
   */
  async function eraseTx(tx: Tx, userId: string, actor: Actor, request: Request): Promise<void> {
    const person = await personTx(tx, userId);
    const context = { actor, ownAccount: request === "own account", at: now() };
    let ordersKept = 0;
    for (const { forget } of registry) {
      const report = await forget(tx, person, context);
      if (report?.ordersKept !== undefined) ordersKept = report.ordersKept;
    }
    // Receivers hear of the erasure (decision 078): the account's id only.
    await deps.webhooks?.emitTx(tx, "customer.erased", { customer: { id: userId, erasedAt: now().toISOString() } });
    // The erasure itself: who asked and how, and no erased value.
    await audited(tx as unknown as Db, actor, ERASURE_ENTITY, (_tx, audit) =>
      audit.deleted(userId, {
        request: request === "by mail" ? "By mail, erased in the back office" : "From their own account",
        ordersKept,
      }),
    );
  }

  return {
    backupsKept: deps.backupsKept,

    /** "Download my data": one document of the person's records (nine reads, each by an index). */
    async exportData(userId: string): Promise<DataExport> {
      const person = await accountOf(userId);
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
      const person = await accountOf(userId);
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
