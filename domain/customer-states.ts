/**
 * A customer's membership state and the customers list's views as the pages show and link them: states, labels,
 * tones, sorts and addresses. Apart from the list's and the record's schemas (domain/customers.ts, which re-exports all
 * of this): the pages' browser code needs only these, and a module that builds zod schemas would bring zod into their
 * scripts (issue 28, decision 054).
 */
import { DAY_MS } from "./membership";
import type { Tone } from "./vocabulary";

/** What the list knows of a customer's membership (customer_totals; no row: no order at all). */
export interface CustomerFigures {
  /** The latest end of a Paid and Delivered order's window (null: none ever). */
  membershipEnds: Date | null;
  /** Paid orders waiting for the studio's activation. */
  waiting: number;
  /** Erased (decision 045): no longer anyone's membership, whatever their kept orders say (decision 063). */
  erased?: boolean;
}

/** How many days before its end a membership is "ending soon" (the reminder mail's 7 days). */
export const ENDING_SOON_DAYS = 7;

/**
 * A customer's membership state, as membershipOf (domain/membership.ts) decides it from their orders: active while a
 * window holds now (the windows of counting orders are laid end to end from activations in the past, so that is
 * "the latest end is after now"); else waiting when a paid order waits for activation; else expired when a window
 * ever was; else never paid.
 */
export type CustomerState = "active" | "waiting" | "expired" | "never-paid" | "erased";

export function customerState(f: CustomerFigures | null, now: Date): CustomerState {
  if (f?.erased) return "erased";
  if (f?.membershipEnds && f.membershipEnds.getTime() > now.getTime()) return "active";
  if (f && f.waiting > 0) return "waiting";
  if (f?.membershipEnds) return "expired";
  return "never-paid";
}

/** Active, and its end within ENDING_SOON_DAYS of now. */
export function endingSoon(f: CustomerFigures | null, now: Date): boolean {
  if (f?.erased) return false;
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
  erased: "Erased",
};

const STATE_TONES: Record<CustomerState, Tone> = {
  active: "green",
  waiting: "amber",
  expired: "red",
  "never-paid": "grey",
  erased: "grey",
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

/** The most days given at once (ten years). */
export const MAX_GIVEN_DAYS = 3650;

/** The longest note on a customer's record. */
export const MAX_NOTE = 5000;
