/**
 * The customers list and record (issue 26, part 2): a customer's membership state from the figures the database keeps
 * for them (customer_totals, derived from the stored membership windows), the list's filters and sorts, and the forms
 * of the record's actions. Pure: shared by the pages, the REST calls and the tests.
 */
import { z } from "zod";
import { choice, requiredText, text } from "./fields";
import { ERASED_NAME, isErasedAddress } from "./privacy";
import {
  CUSTOMER_SORTS,
  MAX_GIVEN_DAYS,
  MAX_NOTE,
  STATE_FILTERS,
  type CustomerFilters,
  type CustomerSort,
  type StateFilter,
} from "./customer-states";

// The states, labels, sorts and addresses live apart from the schemas (the pages' browser code needs them).
export * from "./customer-states";

const filterFields = {
  q: text("Search", 100),
  state: choice(STATE_FILTERS),
  sort: choice(CUSTOMER_SORTS),
} as const;
type FilterKey = keyof typeof filterFields;
const FILTER_KEYS = Object.keys(filterFields) as FilterKey[];

const normalise = (raw: Partial<Record<FilterKey, string>>): CustomerFilters => ({
  ...(raw.q ? { q: raw.q } : {}),
  ...(raw.state ? { state: raw.state as StateFilter } : {}),
  sort: (raw.sort as CustomerSort | undefined) ?? "joined",
});

/** The filters of a REST call, strictly: an unknown state or sort is a 400 naming the field. */
export const customerFiltersSchema = z
  .object(
    Object.fromEntries(
      FILTER_KEYS.map((k) => [k, z.preprocess((v) => (v === "" ? undefined : v), filterFields[k].optional())]),
    ),
  )
  .transform((raw) => normalise(raw as Partial<Record<FilterKey, string>>)) as unknown as z.ZodType<CustomerFilters>;

/** The filters of a page address, leniently: a value that does not parse is ignored (an old bookmark still opens). */
export function customerFiltersFromSearch(params: URLSearchParams): CustomerFilters {
  const raw: Partial<Record<FilterKey, string>> = {};
  for (const key of FILTER_KEYS) {
    const value = params.get(key);
    if (value === null || value.trim() === "") continue;
    const parsed = filterFields[key].safeParse(value);
    if (parsed.success) raw[key] = parsed.data;
  }
  return normalise(raw);
}

// ── Who the customer is, as the studio reads it ─────────────────────────────────────────────────────────────────

/**
 * A customer's display name (issue 33, item 9; decision 063), the one rule for every list, record, greeting and CSV:
 * an erased person is "Erased customer"; else their account's name if they set one; else the name they gave on their
 * latest order (customer_totals.latest_name, kept by the orders' triggers); else none ("": the page shows the email).
 */
export function customerDisplayName(who: {
  name: string | null | undefined;
  email: string;
  latestOrderName?: string | null;
}): string {
  if (isErasedAddress(who.email)) return ERASED_NAME;
  return who.name?.trim() || who.latestOrderName?.trim() || "";
}

/** The address the studio sees for a customer: none for an erased person (their placeholder is no address). */
export const shownEmail = (email: string): string | null => (isErasedAddress(email) ? null : email);

// ── The record's actions ────────────────────────────────────────────────────────────────────────────────────────

const wholeDays = z.preprocess(
  (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v.trim())) : v),
  z
    .number({ error: (i) => (i.input === undefined ? "Days is required" : "Days must be a number") })
    .int({ error: "Days must be a whole number" })
    .min(1, { error: "Days must be at least 1" })
    .max(MAX_GIVEN_DAYS, { error: `Days must be at most ${MAX_GIVEN_DAYS}` }),
);

/** Give or extend a membership: how many days, and why (kept in the log and on the order, never shown to the customer). */
export const grantSchema = z.object({
  days: wholeDays,
  reason: requiredText("Reason", 200),
});
export type GrantInput = z.infer<typeof grantSchema>;

/**
 * A payment received outside PayPal: which unpaid order, the transfer's reference, and whether to activate the membership
 * at once (a form's checkbox: absent is no, as a browser sends an unticked box).
 */
export const bankTransferSchema = z.object({
  orderId: requiredText("Order", 100, "Choose the order that was paid"),
  reference: requiredText("Reference", 120),
  activate: z
    .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")], {
      error: "Activate must be true or false",
    })
    .optional()
    .transform((v) => v === true || v === "on" || v === "true"),
});
export type BankTransferInput = z.infer<typeof bankTransferSchema>;

/** The private note (empty clears it). */
export const noteSchema = z.object({ note: text("Note", MAX_NOTE) });

/** Which mail to send again: an order's confirmation (unpaid) or its payment receipt (paid). */
export const resendSchema = z.object({ orderId: requiredText("Order", 100, "Choose the order") });
