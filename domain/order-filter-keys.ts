/**
 * The orders desk's filters as the pages link them: their names, and the address of a view. Apart from their schemas
 * (domain/order-filters.ts, which re-exports all of this): the desk's browser code needs only these, and a module that
 * builds zod schemas would bring zod into its scripts (issue 28, decision 054).
 */
import type { OrderStatus, PaymentStatus } from "./vocabulary";

export interface OrderFilters {
  /** A piece of the customer's name or email. */
  q?: string;
  payment?: PaymentStatus;
  status?: OrderStatus;
  /** Calendar days in the site's time zone, YYYY-MM-DD, both included. */
  from?: string;
  to?: string;
  /** Paid orders still Pending: the memberships waiting for the studio's activation, oldest first. */
  view?: "to-deliver";
}

export const TO_DELIVER = { payment: "Paid", status: "Pending" } as const satisfies OrderFilters;

/** Every filter's name, in the order an address lists them. */
export const ORDER_FILTER_KEYS = [
  "q",
  "payment",
  "status",
  "from",
  "to",
  "view",
] as const satisfies readonly (keyof OrderFilters)[];
export type OrderFilterKey = (typeof ORDER_FILTER_KEYS)[number];

/** The address of a view of the desk (the filters as search parameters), for links and the filter form's reset. */
export function filtersHref(path: string, filters: OrderFilters): string {
  const params = new URLSearchParams();
  for (const key of ORDER_FILTER_KEYS) {
    const value = filters[key];
    if (value) params.set(key, value);
  }
  if (filters.view === "to-deliver") {
    params.delete("payment");
    params.delete("status");
  }
  const query = params.toString();
  return query ? `${path}?${query}` : path;
}

/** Whether any filter is set. */
export const isFiltered = (filters: OrderFilters) => ORDER_FILTER_KEYS.some((k) => filters[k] !== undefined);
