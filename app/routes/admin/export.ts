import { data } from "react-router";
import type { Route } from "./+types/export";
import { dayKey } from "#domain/dates.ts";
import { csvResponse } from "#app/lib/csv.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";

/** The downloads, each streamed from a database cursor (server/services/exports.ts). */
const FILES = { "orders.csv": "orders", "subscribers.csv": "subscribers", "messages.csv": "messages" } as const;

/** CSV downloads of orders, subscribers and messages (admin only), named after the site's day: orders-2026-12-22.csv. */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "exports");
  const file = params.file as keyof typeof FILES;
  if (!Object.hasOwn(FILES, file)) throw data({ message: "Not found" }, { status: 404 });
  const name = FILES[file];
  const table = await context.services.exports[name]();
  return csvResponse(table, `${name}-${dayKey(new Date(), context.config.timeZone)}.csv`);
}
