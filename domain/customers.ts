/**
 * The customers list and record (issue 26, part 2): a customer's membership state from the figures the database keeps
 * for them (customer_totals, derived from the stored membership windows), the list's filters and sorts, and the forms
 * of the record's actions. Pure: shared by the pages, the REST calls and the tests.
 */
import { z } from "zod";
import { choice, requiredText, text } from "./fields";
import { DAY_MS } from "./membership";
import type { Tone } from "./vocabulary";

/** What the list knows of a customer's membership (customer_totals; no row: no order at all). */
export interface CustomerFigures {
  /** The latest end of a Paid and Delivered order's window (null: none ever). */
  membershipEnds: Date | null;
  /** Paid orders waiting for the studio's activation. */
  waiting: number;
}

/** How many days before its end a membership is "ending soon" (the reminder mail's 7 days). */
export const ENDING_SOON_DAYS = 7;

/**
 * A customer's membership state, as membershipOf (domain/membership.ts) decides it from their orders: active while a
 * window holds now (the windows of counting orders are laid end to end from activations in the past, so that is
 * "the latest end is after now"); else waiting when a paid order waits for activation; else expired when a window
 * ever was; else never paid.
 */
export type CustomerState = "active" | "waiting" | "expired" | "never-paid";

export function customerState(f: CustomerFigures | null, now: Date): CustomerState {
  if (f?.membershipEnds && f.membershipEnds.getTime() > now.getTime()) return "active";
  if (f && f.waiting > 0) return "waiting";
  if (f?.membershipEnds) return "expired";
  return "never-paid";
}

/** Active, and its end within ENDING_SOON_DAYS of now. */
export function endingSoon(f: CustomerFigures | null, now: Date): boolean {
  const end = f?.membershipEnds?.getTime();
  return end !== undefined && end > now.getTime() && end <= now.getTime() + ENDING_SOON_DAYS * DAY_MS;
}

/** The list's state filter: each state, and "ending soon" (active, ending within 7 days). */
export const STATE_FILTERS = ["active", "ending-soon", "waiting", "expired", "never-paid"] as const;
export type StateFilter = (typeof STATE_FILTERS)[number];

export const STATE_LABELS: Record<StateFilter, string> = {
  active: "Active",
  "ending-soon": "Ending soon (7 days)",
  waiting: "Waiting for activation",
  expired: "Expired",
  "never-paid": "Never paid",
};

/** Each state as the list, the record and the CSV name it. */
export const CUSTOMER_STATE_LABELS: Record<CustomerState, string> = {
  active: "Active",
  waiting: "Waiting for activation",
  expired: "Expired",
  "never-paid": "Never paid",
};

const STATE_TONES: Record<CustomerState, Tone> = {
  active: "green",
  waiting: "amber",
  expired: "red",
  "never-paid": "grey",
};
export const customerStateTone = (s: CustomerState): Tone => STATE_TONES[s];

/** The list's sorts, each served by an index (server/db/schema.ts): name A–Z, newest first, latest end, most spent. */
export const CUSTOMER_SORTS = ["name", "joined", "membership-end", "spent"] as const;
export type CustomerSort = (typeof CUSTOMER_SORTS)[number];
export const SORT_LABELS: Record<CustomerSort, string> = {
  name: "Name",
  joined: "Joined (newest first)",
  "membership-end": "Membership end (latest first)",
  spent: "Total spent (most first)",
};

export interface CustomerFilters {
  /** A piece of the name or email, or an order number. */
  q?: string;
  state?: StateFilter;
  sort: CustomerSort;
}

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

/** The address of a view of the list, for links (the default sort is left out). */
export function customersHref(filters: Partial<CustomerFilters>, extra: Record<string, string> = {}): string {
  const params = new URLSearchParams();
  if (filters.q) params.set("q", filters.q);
  if (filters.state) params.set("state", filters.state);
  if (filters.sort && filters.sort !== "joined") params.set("sort", filters.sort);
  for (const [k, v] of Object.entries(extra)) params.set(k, v);
  const query = params.toString();
  return query ? `/customers?${query}` : "/customers";
}

// ── The record's actions ────────────────────────────────────────────────────────────────────────────────────────

/** The most days given at once (ten years). */
export const MAX_GIVEN_DAYS = 3650;

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
export const MAX_NOTE = 5000;
export const noteSchema = z.object({ note: text("Note", MAX_NOTE) });

/** Which mail to send again: an order's confirmation (unpaid) or its payment receipt (paid). */
export const resendSchema = z.object({ orderId: requiredText("Order", 100, "Choose the order") });
