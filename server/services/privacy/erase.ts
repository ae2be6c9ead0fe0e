import { and, eq, ne, sql } from "drizzle-orm";
import {
  DELETE_MESSAGES,
  deleteAccountSchema,
  ERASED_NAME,
  ERASURE_ENTITY,
  isErasedAddress,
  isUserId,
  personOf,
  type Person,
} from "#domain/privacy.ts";
import { parseWith } from "#domain/validation.ts";
import type { Db } from "#server/db/client.ts";
import { orders, user } from "#server/db/schema.ts";
import { AppError, badRequest, conflict, notFound, tooMany } from "#server/lib/errors.ts";
import { audited, type Actor } from "../activity";
import type { Tx } from "../jobs";
import {
  accountOf,
  ALREADY_ERASED,
  DELETE_LIMIT,
  iso,
  type ErasureSubject,
  type PrivacyContext,
  type Request,
} from "./model";

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
async function eraseTx(
  { now, registry, webhooks }: PrivacyContext,
  tx: Tx,
  userId: string,
  actor: Actor,
  request: Request,
): Promise<void> {
  const person = await personTx(tx, userId);
  const context = { actor, ownAccount: request === "own account", at: now() };
  let ordersKept = 0;
  for (const { forget } of registry) {
    const report = await forget(tx, person, context);
    if (report?.ordersKept !== undefined) ordersKept = report.ordersKept;
  }
  // Receivers hear of the erasure (decision 078): the account's id only.
  await webhooks?.emitTx(tx, "customer.erased", { customer: { id: userId, erasedAt: now().toISOString() } });
  // The erasure itself: who asked and how, and no erased value.
  await audited(tx as unknown as Db, actor, ERASURE_ENTITY, (_tx, audit) =>
    audit.deleted(userId, {
      request: request === "by mail" ? "By mail, erased in the back office" : "From their own account",
      ordersKept,
    }),
  );
}

/** Whether deleting this person's account asks for their second factor's code too. */
export async function needsCode({ twoFactor }: PrivacyContext, userId: string): Promise<boolean> {
  return (await twoFactor.state(userId)).enabled;
}

/**
 * "Delete my account": the current password (and the second factor's code when it is on) confirm it; then
 * everything is erased in one transaction. Wrong answers count against the person (DELETE_LIMIT).
 */
export async function deleteOwnAccount(ctx: PrivacyContext, viewer: { id: string }, input: unknown): Promise<void> {
  const { limiter, twoFactor } = ctx;
  const parsed = parseWith(deleteAccountSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const { password, code } = parsed.data;
  const failures = await limiter.count(DELETE_LIMIT, viewer.id);
  if (failures.count >= DELETE_LIMIT.limit) throw tooMany(DELETE_MESSAGES.tooMany);
  if (!(await twoFactor.passwordMatches(viewer.id, password))) {
    await limiter.add(DELETE_LIMIT, viewer.id);
    throw refused("password", DELETE_MESSAGES.passwordWrong);
  }
  if (await needsCode(ctx, viewer.id)) {
    if (!code) throw refused("code", DELETE_MESSAGES.codeRequired);
    if (!(await twoFactor.checkCode(viewer.id, code))) throw refused("code", DELETE_MESSAGES.codeWrong);
  }
  await ctx.db.transaction((tx) => eraseTx(ctx, tx, viewer.id, { id: viewer.id, email: ERASED_NAME }, "own account"));
}

/** The admin's confirmation page: who this is, what will be kept, and whether they may be erased here. */
export async function subject({ db }: PrivacyContext, userId: string): Promise<ErasureSubject> {
  const person = await accountOf(db, userId);
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
}

/** An admin erases a customer at their request (by mail): never a staff member (409), nor twice (409). */
export async function eraseCustomer(ctx: PrivacyContext, userId: string, actor: Actor): Promise<void> {
  if (!isUserId(userId)) throw notFound("No customer has this id.");
  await ctx.db.transaction((tx) => eraseTx(ctx, tx, userId, actor, "by mail"));
}
