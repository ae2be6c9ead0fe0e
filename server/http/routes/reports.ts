import { REPORTS } from "#domain/reports.ts";
import { periodLabel, taxTable } from "#domain/tax-report.ts";
import { badRequest } from "#server/lib/errors.ts";
import type { Services } from "#server/services/index.ts";
import type { ApiRoute } from "./route";

/**
 * The reports, one call each: `GET /api/reports/<name>?from=YYYY-MM-DD&to=YYYY-MM-DD` (or `?period=this-month`;
 * neither: the last 12 months), answering the period and the report's columns and rows, as its CSV has them. The tax
 * report: `GET /api/reports/tax?period=2026-Q4` (a month 2026-11, a quarter, or from and to; neither: this quarter),
 * answering the report per currency (lines, totals per treatment, OSS lines) and its CSV's columns and rows.
 */
export function reportRoutes({ reports, taxReport }: Services): ApiRoute[] {
  const each = REPORTS.map((report): ApiRoute => ({
    method: "get",
    path: `/reports/${report.name}`,
    access: "staff",
    area: "reports",
    what: `report: ${report.title.toLowerCase()}, for ?from=&to= (site's days, at most 5 years) or ?period=`,
    handler: async (req) => {
      const q = req.query;
      const period = reports.period({ period: q.period, from: q.from, to: q.to });
      if (!period.ok) throw badRequest(period.errors);
      const { header, rows } = reports.reportTable(report.name, await reports.of(period.data));
      return { report: report.name, title: report.title, period: period.data, columns: header, rows };
    },
  }));
  return [
    ...each,
    {
      method: "get",
      path: "/reports/tax",
      access: "staff",
      area: "reports",
      what: "the tax report: sales and credit notes per country, treatment and rate, for ?period=2026-11|2026-Q4 or ?from=&to=",
      handler: async (req) => {
        const q = req.query;
        const period = taxReport.period({ period: q.period, from: q.from, to: q.to });
        if (!period.ok) throw badRequest(period.errors);
        const report = await taxReport.of(period.data);
        const { header, rows } = taxTable(report);
        return {
          report: "tax",
          title: "Tax",
          period: { ...period.data, label: periodLabel(period.data) },
          currencies: report.currencies,
          columns: header,
          rows,
        };
      },
    },
  ];
}
