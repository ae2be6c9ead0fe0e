/**
 * Discount codes (issue 27, part 6; decision 049): what a code is, the admin's form, whether a code applies to an
 * order and why not, and the price it gives. Pure: the service (server/services/discounts.ts) reads the code and its
 * uses under the code's row lock and asks these functions.
 */
import { z } from "zod";
import { choice, requiredText, text } from "./fields";

export const DISCOUNT_KINDS = ["percent", "amount"] as const;
export type DiscountKind = (typeof DISCOUNT_KINDS)[number];
export const DISCOUNT_KIND_LABEL: Record<DiscountKind, string> = {
  percent: "Percentage",
  amount: "Fixed amount",
};

/** For a subscription: the discount on the first period only, or on every period (stored; PayPal subscriptions read it). */
export const DISCOUNT_PERIODS = ["first", "every"] as const;
export type DiscountPeriod = (typeof DISCOUNT_PERIODS)[number];
export const DISCOUNT_PERIOD_LABEL: Record<DiscountPeriod, string> = {
  first: "First period only",
  every: "Every period",
};

/** A code as people type it: 3 to 32 letters, digits, dashes or underscores; stored and compared upper-case. */
export const CODE_PATTERN = /^[A-Z0-9_-]{3,32}$/;
export const normaliseCode = (code: string) => code.trim().toUpperCase();

/** A code as the rules read it. */
export interface DiscountCode {
  code: string;
  kind: DiscountKind;
  /** A percentage (1 to 100) or an amount in dollars (cents). */
  value: number;
  /** The first and last day it may be used (YYYY-MM-DD in the site's zone, inclusive); null: no limit. */
  validFrom: string | null;
  validTo: string | null;
  /** How many orders may use it in all; null: no limit. */
  maxUses: number | null;
  oncePerCustomer: boolean;
  /** The packages it is for; empty: every package. */
  packageIds: readonly string[];
  disabled: boolean;
}

/** What the rules need to know about an order being placed with a code. */
export interface DiscountUse {
  /** Today in the site's zone, YYYY-MM-DD. */
  today: string;
  packageId: string;
  price: number;
  /** Orders placed with the code so far (cancelled ones give their use back). */
  uses: number;
  /** Whether this customer already placed an order with it (not cancelled). */
  usedByCustomer: boolean;
}

export type DiscountRefusal = "unknown" | "expired" | "notYet" | "usedUp" | "alreadyUsed" | "notForPackage" | "free";

/** Why a code does not apply, said to the customer on the order page. */
export const DISCOUNT_REFUSALS: Record<DiscountRefusal, string> = {
  unknown: "This discount code does not exist. Please check it.",
  expired: "This discount code has expired.",
  notYet: "This discount code is not valid yet.",
  usedUp: "This discount code has been used up.",
  alreadyUsed: "You have already used this discount code.",
  notForPackage: "This discount code is not for this package.",
  free: "This discount code is worth the whole price: please contact us to use it.",
};

/** Whole cents, so that 0.1 + 0.2 is 0.30. */
export const toCents = (dollars: number) => Math.round(dollars * 100);

/**
 * The discount in dollars a code gives on a price: a percentage rounded to the nearest cent (half a cent up), or the
 * fixed amount; never more than the price, never negative.
 */
export function discountOf(price: number, code: Pick<DiscountCode, "kind" | "value">): number {
  const cents = Math.max(0, toCents(price));
  const off =
    code.kind === "percent" ? Math.round((cents * Math.min(100, Math.max(0, code.value))) / 100) : toCents(code.value);
  return Math.min(cents, Math.max(0, off)) / 100;
}

/** The price after the code: the price less its discount, in whole cents, never negative. */
export function discountedPrice(price: number, code: Pick<DiscountCode, "kind" | "value">): number {
  return (Math.max(0, toCents(price)) - toCents(discountOf(price, code))) / 100;
}

/** The price an order takes with a code, or why the code does not apply (checked in the order people understand). */
export function applyDiscount(
  code: DiscountCode | null,
  use: DiscountUse,
): { ok: true; priceBefore: number; discount: number; price: number } | { ok: false; reason: DiscountRefusal } {
  if (!code || code.disabled) return { ok: false, reason: "unknown" };
  if (code.validFrom && use.today < code.validFrom) return { ok: false, reason: "notYet" };
  if (code.validTo && use.today > code.validTo) return { ok: false, reason: "expired" };
  if (code.packageIds.length > 0 && !code.packageIds.includes(use.packageId))
    return { ok: false, reason: "notForPackage" };
  if (code.oncePerCustomer && use.usedByCustomer) return { ok: false, reason: "alreadyUsed" };
  if (code.maxUses !== null && use.uses >= code.maxUses) return { ok: false, reason: "usedUp" };
  const price = discountedPrice(use.price, code);
  // PayPal takes no payment of $0.00: a code worth the whole price is for the studio to handle (a given membership).
  if (price <= 0) return { ok: false, reason: "free" };
  return { ok: true, priceBefore: toCents(use.price) / 100, discount: discountOf(use.price, code), price };
}

// ── Which orders use a code (decision 060) ────────────────────────────────────────────────────────────────────────

/**
 * How long an unpaid order holds its use of a code: long enough to pay at PayPal, short enough that an order left
 * unpaid does not keep a limited code from everyone else. A payment PayPal reports pending keeps holding it.
 */
export const DISCOUNT_HOLD_HOURS = 2;
export const DISCOUNT_HOLD_MS = DISCOUNT_HOLD_HOURS * 60 * 60 * 1000;

/** An order placed with the code (its renewals are no use of their own), as the use rules read it. */
export interface CodeOrder {
  id: string;
  userId: string;
  paymentStatus: "UnPaid" | "Paid" | "Cancelled" | "Refunded";
  placedAt: Date;
  /** PayPal reported a payment pending (an eCheck, a review): the money is on its way. */
  pendingAtPayPal: boolean;
}

/**
 * What one order is to its code's limits: "paid" (Paid, or Refunded: the money was taken, so the use stays), "held"
 * (unpaid, placed less than DISCOUNT_HOLD_MS ago or with a payment pending at PayPal), or nothing (cancelled, or
 * unpaid past its hold).
 */
export function useOf(order: CodeOrder, now: Date): "paid" | "held" | null {
  if (order.paymentStatus === "Paid" || order.paymentStatus === "Refunded") return "paid";
  if (order.paymentStatus !== "UnPaid") return null;
  return order.pendingAtPayPal || now.getTime() - order.placedAt.getTime() < DISCOUNT_HOLD_MS ? "held" : null;
}

/**
 * The uses a code counts, leaving out `except` (one order: the one being paid) and, for holds, `customer` (whose own
 * unpaid orders are the order being placed or paid): every paid order is a use; held orders are one use per customer,
 * so that one customer's unpaid orders cannot keep a limited code from everyone.
 */
export function countUses(
  orders: readonly CodeOrder[],
  now: Date,
  except: { orderId?: string; userId?: string } = {},
): { uses: number; paidByCustomer: boolean; heldByCustomer: boolean } {
  let paid = 0;
  let paidByCustomer = false;
  let heldByCustomer = false;
  const holders = new Set<string>();
  for (const o of orders) {
    if (o.id === except.orderId) continue;
    const use = useOf(o, now);
    const mine = o.userId === except.userId;
    if (use === "paid") {
      paid++;
      if (mine) paidByCustomer = true;
    } else if (use === "held") {
      if (mine) heldByCustomer = true;
      else holders.add(o.userId);
    }
  }
  return { uses: paid + holders.size, paidByCustomer, heldByCustomer };
}

/** What the rules of a code's use need to know of an order being placed by `userId` (for applyDiscount). */
export function placingUse(orders: readonly CodeOrder[], now: Date, userId: string) {
  const c = countUses(orders, now, { userId });
  return { uses: c.uses, usedByCustomer: c.paidByCustomer || c.heldByCustomer };
}

/**
 * Whether a payment of `order` (unpaid, or cancelled by its customer) may take its code's use: the code's other paid
 * orders and other customers' holds leave room for it, and, once per customer, no other order of the customer paid
 * with it. A payment that may not is not applied (the money is recorded and refunded by the studio: decision 060).
 */
export function mayPayWithCode(
  code: Pick<DiscountCode, "maxUses" | "oncePerCustomer">,
  orders: readonly CodeOrder[],
  order: Pick<CodeOrder, "id" | "userId">,
  now: Date,
): { ok: true } | { ok: false; reason: "usedUp" | "alreadyUsed" } {
  const c = countUses(orders, now, { orderId: order.id, userId: order.userId });
  if (code.oncePerCustomer && c.paidByCustomer) return { ok: false, reason: "alreadyUsed" };
  if (code.maxUses !== null && c.uses >= code.maxUses) return { ok: false, reason: "usedUp" };
  return { ok: true };
}

/** Why a payment did not take its order's code, said to the studio (the order page, the payment's record). */
export const PAYMENT_REFUSALS: Record<"usedUp" | "alreadyUsed", (code: string) => string> = {
  usedUp: (code) =>
    `The discount code ${code} has been used up by other paid orders since this order was placed: the payment was not applied. Refund it at PayPal, or ask the customer to order again.`,
  alreadyUsed: (code) =>
    `The customer has already used the discount code ${code} on another paid order: the payment was not applied. Refund it at PayPal.`,
};

/** Why the pay page does not send the customer to PayPal with an order whose code has no room left for it. */
export const PAY_PAGE_REFUSALS: Record<"usedUp" | "alreadyUsed", string> = {
  usedUp:
    "The discount code on this order has been used up by other customers since you placed it, so this order can no longer be paid. Please cancel it and place a new order.",
  alreadyUsed:
    "You have already used this order's discount code on another paid order, so this order can no longer be paid. Please cancel it and place a new order.",
};

/** A code may only name packages that exist: said on the packages field of the back office's form and the API. */
export const UNKNOWN_PACKAGE_MESSAGE = "A chosen package does not exist (any more): choose packages from the list.";

/** How a code's worth reads: "20%" or "$10.00". */
export const discountWorth = (code: Pick<DiscountCode, "kind" | "value">) =>
  code.kind === "percent" ? `${code.value}%` : `$${code.value.toFixed(2)}`;

// ── The back office's form ──────────────────────────────────────────────────────────────────────────────────────

const blankToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);
const numberOf = (v: unknown) => (typeof v === "string" ? Number(v.trim()) : v);
const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
const DAY = /^\d{4}-\d{2}-\d{2}$/;
const isDay = (v: string) =>
  DAY.test(v) && !Number.isNaN(Date.parse(`${v}T00:00:00Z`)) && new Date(`${v}T00:00:00Z`).toISOString().startsWith(v);
const day = (label: string) =>
  z.preprocess(
    blankToUndefined,
    z
      .string({ error: `${label} must be a date` })
      .trim()
      .refine(isDay, { error: `${label} must be a date (YYYY-MM-DD)` })
      .optional(),
  );
const checkbox = (label: string) =>
  z
    .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")], {
      error: `${label} must be true or false`,
    })
    .optional()
    .transform((v) => v === true || v === "on" || v === "true");

/** The most a fixed amount may be (the price field's limit, numeric(10,2)). */
export const MAX_DISCOUNT_AMOUNT = 99_999_999;
export const MAX_DISCOUNT_USES = 1_000_000;

/** A code created or edited in the back office. Empty dates and maximum: no limit; no package ticked: every package. */
export const discountCodeSchema = z
  .object({
    code: requiredText("Code", 32)
      .transform(normaliseCode)
      .refine((c) => CODE_PATTERN.test(c), {
        error: "Code must be 3 to 32 letters, digits, dashes or underscores",
      }),
    kind: choice(DISCOUNT_KINDS, { invalid: "Choose percentage or fixed amount" }),
    value: z.preprocess(
      numberOf,
      z
        .number({
          error: (i) => (i.input === "" || i.input === undefined ? "Value is required" : "Value must be a number"),
        })
        .refine((n) => Number.isFinite(n) && n > 0, { error: "Value must be more than 0" })
        .refine((n) => n <= MAX_DISCOUNT_AMOUNT, { error: "Value is too large" })
        .refine((n) => Math.abs(n * 100 - Math.round(n * 100)) < 1e-6, { error: "Value must be in whole cents" }),
    ),
    validFrom: day("Valid from"),
    validTo: day("Valid to"),
    maxUses: z.preprocess(
      (v) => numberOf(blankToUndefined(v)),
      z
        .number({ error: "Maximum uses must be a number" })
        .int({ error: "Maximum uses must be a whole number" })
        .min(1, { error: "Maximum uses must be at least 1" })
        .max(MAX_DISCOUNT_USES, { error: "Maximum uses must be at most 1,000,000" })
        .optional(),
    ),
    oncePerCustomer: checkbox("Once per customer"),
    packageIds: z.preprocess(
      (v) => (v === undefined || v === "" ? [] : Array.isArray(v) ? v : [v]),
      z
        .array(z.unknown(), { error: "Packages must be a list" })
        .max(100, { error: "Choose at most 100 packages" })
        .refine((ids) => ids.every((id) => typeof id === "string" && UUID.test(id)), {
          error: "Choose packages from the list",
        })
        .transform((ids) => ids as string[]),
    ),
    period: choice(DISCOUNT_PERIODS, { invalid: "Choose first period only or every period" })
      .optional()
      .default("first"),
    note: text("Note", 300).optional().default(""),
  })
  .superRefine((v, ctx) => {
    if (v.kind === "percent" && v.value > 100)
      ctx.addIssue({ code: "custom", path: ["value"], message: "A percentage must be at most 100" });
    if (v.validFrom && v.validTo && v.validTo < v.validFrom)
      ctx.addIssue({ code: "custom", path: ["validTo"], message: "Valid to must be on or after Valid from" });
  });
export type DiscountCodeInput = z.infer<typeof discountCodeSchema>;

/** The code typed on the order page: optional; blank is none. */
export const orderCodeSchema = z.preprocess(
  blankToUndefined,
  z
    .string({ error: "Discount code must be text" })
    .trim()
    .max(32, { error: "Discount code must be at most 32 characters" })
    .transform(normaliseCode)
    .optional(),
);

/** Disable or enable a code (kept for the orders that used it). */
export const discountStateSchema = z.object({
  disabled: checkbox("Disabled"),
});
