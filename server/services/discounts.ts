import { and, count, desc, eq, isNull, ne, sql } from "drizzle-orm";
import { dayKey } from "#domain/dates.ts";
import {
  applyDiscount,
  CODE_PATTERN,
  countUses,
  mayPayWithCode,
  PAYMENT_REFUSALS,
  placingUse,
  UNKNOWN_PACKAGE_MESSAGE,
  type CodeOrder,
  DISCOUNT_REFUSALS,
  discountCodeSchema,
  discountStateSchema,
  normaliseCode,
  type DiscountCode,
  type DiscountCodeInput,
  type DiscountKind,
  type DiscountPeriod,
} from "#domain/discounts.ts";
import type { PageInfo } from "#domain/pagination.ts";
import type { Db } from "../db/client";
import { discountCodes, orders } from "../db/schema";
import { AppError, badRequest, isId, isUniqueViolation, notFound, parsedOr400 } from "../lib/errors";
import { paginate } from "../lib/paging";
import { audited, type Actor } from "./activity";
import { changedColumns } from "../lib/row-changes";
import { withDeps } from "../lib/with-deps";
import type { ContentService } from "./content";
import type { Tx } from "./jobs";

type Row = typeof discountCodes.$inferSelect;

/** A code as the back office and the API see it, with its uses so far. */
export interface DiscountCodeRecord {
  _id: string;
  code: string;
  kind: DiscountKind;
  value: number;
  validFrom: string | null;
  validTo: string | null;
  maxUses: number | null;
  oncePerCustomer: boolean;
  packageIds: string[];
  period: DiscountPeriod;
  note: string;
  disabled: boolean;
  /** Its uses now (decision 060): paid orders, and unpaid ones still holding a use (one per customer). */
  uses: number;
  createdAt: string;
}

const toRecord = (r: Row, uses: number): DiscountCodeRecord => ({
  _id: r.id,
  code: r.code,
  kind: r.kind,
  value: r.value,
  validFrom: r.validFrom,
  validTo: r.validTo,
  maxUses: r.maxUses,
  oncePerCustomer: r.oncePerCustomer,
  packageIds: r.packageIds,
  period: r.period,
  note: r.note,
  disabled: r.disabledAt !== null,
  uses,
  createdAt: r.createdAt.toISOString(),
});

const toRule = (r: Row): DiscountCode => ({
  code: r.code,
  kind: r.kind,
  value: r.value,
  validFrom: r.validFrom,
  validTo: r.validTo,
  maxUses: r.maxUses,
  oncePerCustomer: r.oncePerCustomer,
  packageIds: r.packageIds,
  disabled: r.disabledAt !== null,
});

/** What the form sets, as columns (blank limits stored as null). */
const columnsOf = (v: DiscountCodeInput) => ({
  code: v.code,
  kind: v.kind,
  value: v.value,
  validFrom: v.validFrom ?? null,
  validTo: v.validTo ?? null,
  maxUses: v.maxUses ?? null,
  oncePerCustomer: v.oncePerCustomer,
  packageIds: [...new Set(v.packageIds)],
  period: v.period,
  note: v.note,
});
const audited_ = (r: ReturnType<typeof columnsOf>) => ({ ...r, packageIds: r.packageIds.join(", ") });

/**
 * The orders that may be a use of a code, as the rules read them (domain/discounts.ts `useOf` decides which are):
 * placed with it and not cancelled. A subscription's renewal carrying an every-period code is no new use: one
 * subscription is one use.
 */
const codeOrderColumns = {
  codeId: orders.discountCodeId,
  id: orders.id,
  userId: orders.userId,
  paymentStatus: orders.paymentStatus,
  placedAt: orders.createdAt,
  pendingAtPayPal: sql<boolean>`${orders.providerStatus} is not null`,
};
const mayCount = and(isNull(orders.subscrId), ne(orders.paymentStatus, "Cancelled"));
const toCodeOrder = (r: {
  id: string;
  userId: string;
  paymentStatus: CodeOrder["paymentStatus"];
  placedAt: Date;
  pendingAtPayPal: boolean;
}): CodeOrder => ({
  id: r.id,
  userId: r.userId,
  paymentStatus: r.paymentStatus,
  placedAt: r.placedAt,
  pendingAtPayPal: Boolean(r.pendingAtPayPal),
});

/** The code's unique constraint, said on its field. */
const taken = () =>
  new AppError(409, "A discount code with this code already exists.", [
    { field: "code", message: "This code already exists" },
  ]);
/** A write refused by the code's unique constraint is told as `taken`; any other failure as it was. */
const orTaken = (e: unknown): never => {
  throw isUniqueViolation(e) ? taken() : e;
};

/** What the discounts service is made of (its factory's argument). */
export interface DiscountsDeps {
  db: Db;
  content: Pick<ContentService, "list">;
  timeZone: string;
  now: () => Date;
}

/** The uses of each code right now (one query for them all), as the back office shows them. */
async function usesOf({ db, now }: DiscountsDeps, ids: string[]): Promise<Map<string, number>> {
  if (!ids.length) return new Map();
  const rows = await db
    .select(codeOrderColumns)
    .from(orders)
    .where(and(sql`${orders.discountCodeId} = any(${sql.param(ids)}::uuid[])`, mayCount));
  const byCode = new Map<string, typeof rows>();
  for (const r of rows) byCode.set(r.codeId!, [...(byCode.get(r.codeId!) ?? []), r]);
  const t = now();
  return new Map(ids.map((id) => [id, countUses((byCode.get(id) ?? []).map(toCodeOrder), t).uses]));
}

/** The code's orders that may be uses, read in `tx` (under the code's row lock). */
const codeOrdersTx = async (tx: Tx, id: string) =>
  (
    await tx
      .select(codeOrderColumns)
      .from(orders)
      .where(and(eq(orders.discountCodeId, id), mayCount))
  ).map(toCodeOrder);

/** A code may only name packages that exist (a 400 on the field, the form's and the API's). */
async function checkPackages({ content }: DiscountsDeps, ids: readonly string[]) {
  if (!ids.length) return;
  const known = new Set((await content.list("pricing")).map((p) => p._id));
  if (ids.some((id) => !known.has(id))) throw badRequest([{ field: "packageIds", message: UNKNOWN_PACKAGE_MESSAGE }]);
}

/** The code `id`, its row locked in `tx` to the end of it, or a 404. */
async function lockedTx(tx: Tx, id: string): Promise<Row> {
  const [existing] = await tx.select().from(discountCodes).where(eq(discountCodes.id, id)).for("update");
  if (!existing) throw notFound("Discount code not found");
  return existing;
}

/** One page of codes, newest first (paged in SQL). */
async function list(
  deps: DiscountsDeps,
  options: { page?: unknown; perPage: number },
): Promise<{ codes: DiscountCodeRecord[]; page: PageInfo }> {
  const { db } = deps;
  const [{ n } = { n: 0 }] = await db.select({ n: count() }).from(discountCodes);
  const page = paginate(n, options.page, options.perPage);
  const rows = await db
    .select()
    .from(discountCodes)
    .orderBy(desc(discountCodes.createdAt), desc(discountCodes.id))
    .limit(page.perPage)
    .offset(page.offset);
  const uses = await usesOf(
    deps,
    rows.map((r) => r.id),
  );
  return { codes: rows.map((r) => toRecord(r, uses.get(r.id) ?? 0)), page };
}

async function get(deps: DiscountsDeps, id: string): Promise<DiscountCodeRecord> {
  if (!isId(id)) throw notFound("Discount code not found");
  const [row] = await deps.db.select().from(discountCodes).where(eq(discountCodes.id, id));
  if (!row) throw notFound("Discount code not found");
  return toRecord(row, (await usesOf(deps, [id])).get(id) ?? 0);
}

async function add(deps: DiscountsDeps, input: unknown, actor: Actor): Promise<string> {
  const values = columnsOf(parsedOr400(discountCodeSchema, input));
  await checkPackages(deps, values.packageIds);
  return audited(deps.db, actor, "discount_code", async (tx, audit) => {
    const [row] = await tx.insert(discountCodes).values(values).returning({ id: discountCodes.id });
    await audit.created(row!.id, audited_(values));
    return row!.id;
  }).catch(orTaken);
}

async function update(deps: DiscountsDeps, id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
  const data = parsedOr400(discountCodeSchema, input);
  if (!isId(id)) throw notFound("Discount code not found");
  const values = columnsOf(data);
  await checkPackages(deps, values.packageIds);
  return audited(deps.db, actor, "discount_code", async (tx, audit) => {
    const existing = await lockedTx(tx, id);
    // Written when a stored value changes, whatever the activity entry shows (decision 085).
    if (!changedColumns(existing, values).length) return { modified: false };
    const before = audited_(columnsOf({ ...existing, ...nullsToUndefined(existing) } as DiscountCodeInput));
    await tx
      .update(discountCodes)
      .set({ ...values, updatedAt: deps.now() })
      .where(eq(discountCodes.id, id));
    await audit.updated(id, before, audited_(values));
    return { modified: true };
  }).catch(orTaken);
}

/** Disables a code (customers can no longer use it; the orders that did keep it) or enables it again. */
async function setDisabled(
  deps: DiscountsDeps,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ modified: boolean }> {
  const { disabled } = parsedOr400(discountStateSchema, input);
  if (!isId(id)) throw notFound("Discount code not found");
  return audited(deps.db, actor, "discount_code", async (tx, audit) => {
    const existing = await lockedTx(tx, id);
    const was = existing.disabledAt !== null;
    if (was === disabled) return { modified: false };
    const t = deps.now();
    await tx
      .update(discountCodes)
      .set({ disabledAt: disabled ? t : null, updatedAt: t })
      .where(eq(discountCodes.id, id));
    await audit.updated(id, { code: existing.code, disabled: was }, { code: existing.code, disabled: !was });
    return { modified: true };
  });
}

/**
 * The price of an order placed with `typed` (the code as the customer typed it), in the placing transaction: the
 * code's row is locked to the end of it, so its uses are counted and taken by one placement at a time (two
 * customers racing for the last use: one wins). A code that does not apply is a 400 on the field, saying why.
 */
async function priceTx(
  { now, timeZone }: DiscountsDeps,
  tx: Tx,
  typed: string,
  order: { userId: string; packageId: string; price: number },
): Promise<{
  discountCodeId: string;
  discountCode: string;
  discountPeriod: DiscountPeriod;
  priceBefore: number;
  discountAmount: number;
  price: number;
}> {
  const code = normaliseCode(typed);
  // A text no code can be (a NUL, 40 characters) is unknown without asking the database.
  const [row] = CODE_PATTERN.test(code)
    ? await tx.select().from(discountCodes).where(eq(discountCodes.code, code)).for("update")
    : [];
  const t = now();
  const uses = row ? placingUse(await codeOrdersTx(tx, row.id), t, order.userId) : null;
  const r = applyDiscount(row ? toRule(row) : null, {
    today: dayKey(t, timeZone),
    packageId: order.packageId,
    price: order.price,
    uses: uses?.uses ?? 0,
    usedByCustomer: uses?.usedByCustomer ?? false,
  });
  if (!r.ok) throw badRequest([{ field: "discountCode", message: DISCOUNT_REFUSALS[r.reason] }]);
  return {
    discountCodeId: row!.id,
    discountCode: row!.code,
    discountPeriod: row!.period,
    priceBefore: r.priceBefore,
    discountAmount: r.discount,
    price: r.price,
  };
}

/**
 * Whether a payment of `order` (placed with the code `codeId`) may take the code's use, in the paying transaction:
 * the code's row is locked as when placing, so two payments of its last use serialise. Null: it may; else the
 * sentence for the studio (decision 060: the payment is not applied, and is recorded for a refund).
 */
async function payTx(
  { now }: DiscountsDeps,
  tx: Tx,
  codeId: string,
  order: { id: string; userId: string },
): Promise<string | null> {
  const [row] = await tx.select().from(discountCodes).where(eq(discountCodes.id, codeId)).for("update");
  if (!row) return null;
  const r = mayPayWithCode(toRule(row), await codeOrdersTx(tx, codeId), order, now());
  return r.ok ? null : PAYMENT_REFUSALS[r.reason](row.code);
}

/**
 * The same question for the pay page, before the customer is sent to PayPal (no lock: it only decides whether to
 * offer the form; the payment itself is checked again by payTx). Null: it may be paid.
 */
async function payRefusal(
  { db, now }: DiscountsDeps,
  order: {
    id: string;
    userId: string;
    discountCodeId: string | null;
    subscrId: string | null;
  },
): Promise<"usedUp" | "alreadyUsed" | null> {
  const codeId = order.discountCodeId;
  if (!codeId || order.subscrId) return null;
  return db.transaction(async (tx) => {
    const [row] = await tx.select().from(discountCodes).where(eq(discountCodes.id, codeId));
    if (!row) return null;
    const r = mayPayWithCode(toRule(row), await codeOrdersTx(tx, codeId), order, now());
    return r.ok ? null : r.reason;
  });
}

/**
 * Discount codes (decision 049): the back office makes, edits, disables and lists them; the order commands ask
 * `priceTx` for an order's price in the placing transaction, under the code's row lock. Each command and query is a
 * function over the service's dependencies that this factory only wires (decision 085).
 */
export function createDiscountsService(deps: DiscountsDeps) {
  return {
    list: withDeps(deps, list),
    get: withDeps(deps, get),
    add: withDeps(deps, add),
    update: withDeps(deps, update),
    setDisabled: withDeps(deps, setDisabled),
    priceTx: withDeps(deps, priceTx),
    payTx: withDeps(deps, payTx),
    payRefusal: withDeps(deps, payRefusal),
  };
}

const nullsToUndefined = (r: Row) => ({
  validFrom: r.validFrom ?? undefined,
  validTo: r.validTo ?? undefined,
  maxUses: r.maxUses ?? undefined,
});

export type DiscountsService = ReturnType<typeof createDiscountsService>;
