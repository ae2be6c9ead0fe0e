import { z } from "zod";
import { choice, text } from "./fields";
import { ORDER_FILTER_KEYS, TO_DELIVER, type OrderFilterKey, type OrderFilters } from "./order-filter-keys";
import { orderStatuses, paymentStatuses } from "./vocabulary";

// The names, the links and the address of a view live apart from the schemas (the desk's browser code needs them).
export { filtersHref, isFiltered, ORDER_FILTER_KEYS, TO_DELIVER, type OrderFilters } from "./order-filter-keys";

/**
 * The orders desk's filters, read from the address (/total-orders?q=…&payment=Paid&from=2026-11-01) and from the admin
 * REST list's query (GET /api/orders?…): one schema, so a bookmarked view and a program ask alike. Each filter has an
 * index the query plan uses (server/db/schema.ts, orders).
 */
/** A calendar day typed in a date input (YYYY-MM-DD), checked to be a real one. */
export const day = (label: string) =>
  z
    .string()
    .trim()
    .regex(/^\d{4}-\d{2}-\d{2}$/, { error: `${label} must be a date (YYYY-MM-DD)` })
    .refine(isRealDay, { error: `${label} must be a real date` });

/** 2026-02-28 is a day; 2026-02-31 is not (Date would roll it over to March). */
function isRealDay(v: string): boolean {
  const d = new Date(`${v}T00:00:00Z`);
  return !Number.isNaN(d.getTime()) && d.toISOString().startsWith(v);
}

const fields = {
  q: text("Search", 100),
  payment: choice(paymentStatuses.values),
  status: choice(orderStatuses.values),
  from: day("From"),
  to: day("To"),
  view: choice(["to-deliver"]),
} as const satisfies Record<OrderFilterKey, z.ZodType>;

type Key = OrderFilterKey;
const KEYS = ORDER_FILTER_KEYS;

/** Empty values are no filter; `view=to-deliver` sets payment Paid and status Pending. */
function normalise(raw: Partial<Record<Key, string>>): OrderFilters {
  const out: OrderFilters = {};
  for (const key of KEYS) if (raw[key]) (out as Record<string, string>)[key] = raw[key];
  if (out.view === "to-deliver") Object.assign(out, TO_DELIVER);
  return out;
}

/**
 * The filters of a REST call, strictly: an unknown status or a malformed date is a 400 naming the field. Absent or
 * empty parameters are no filter.
 */
export const orderFiltersSchema = z
  .object(
    Object.fromEntries(KEYS.map((k) => [k, z.preprocess((v) => (v === "" ? undefined : v), fields[k].optional())])),
  )
  .transform((raw) => normalise(raw as Partial<Record<Key, string>>)) as unknown as z.ZodType<OrderFilters>;

/** The filters of a page address, leniently: a value that does not parse is ignored (an old bookmark still opens). */
export function filtersFromSearch(params: URLSearchParams): OrderFilters {
  const raw: Partial<Record<Key, string>> = {};
  for (const key of KEYS) {
    const value = params.get(key);
    if (value === null || value.trim() === "") continue;
    const parsed = fields[key].safeParse(value);
    if (parsed.success) raw[key] = parsed.data;
  }
  return normalise(raw);
}
