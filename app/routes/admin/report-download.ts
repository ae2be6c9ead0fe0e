import { data } from "react-router";
import type { Route } from "./+types/report-download";
import { isReportName } from "#domain/reports.ts";
import { csvResponse } from "#app/lib/csv.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";

/**
 * One report as CSV for the period of the page's address: /reports/revenue.csv?from=2026-01-01&to=2026-03-31; the tax
 * report's lines as /reports/tax.csv?period=2026-Q4 (or from and to).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "reports");
  const name = String(params.file).replace(/\.csv$/, "");
  if (!params.file?.endsWith(".csv") || !(isReportName(name) || name === "tax"))
    throw data({ message: "Not found" }, { status: 404 });
  const q = new URL(request.url).searchParams;
  const input = {
    period: q.get("period") ?? undefined,
    from: q.get("from") ?? undefined,
    to: q.get("to") ?? undefined,
  };
  if (name === "tax") {
    const { taxReport } = context.services;
    const period = taxReport.period(input);
    if (!period.ok) throw data({ message: period.errors.map((e) => e.message).join(" ") }, { status: 400 });
    const table = taxReport.table(await taxReport.of(period.data));
    return csvResponse(table, `tax-${period.data.from}-to-${period.data.to}.csv`);
  }
  const period = context.services.reports.period(input);
  if (!period.ok) throw data({ message: period.errors.map((e) => e.message).join(" ") }, { status: 400 });
  const { reports } = context.services;
  const table = reports.table(name, await reports.of(period.data));
  return csvResponse(table, `${name}-${period.data.from}-to-${period.data.to}.csv`);
}
