import type { Route } from "./+types/customers-csv";
import { customerFiltersFromSearch } from "#domain/customers.ts";
import { dayKey } from "#domain/dates.ts";
import { csvResponse } from "#app/lib/csv.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";

/** The customers of a list view (its search, state and sort) as CSV, streamed from a cursor: customers-2026-11-25.csv. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "customers");
  const filters = customerFiltersFromSearch(new URL(request.url).searchParams);
  const { money } = await context.services.settings.all();
  const table = await context.services.customers.csv(filters, money.currency);
  return csvResponse(table, `customers-${dayKey(context.services.now(), context.config.timeZone)}.csv`);
}
