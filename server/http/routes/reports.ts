import { REPORTS } from "../../../domain/reports";
import { badRequest } from "../../lib/errors";
import type { Services } from "../../services";
import type { ApiRoute } from "./route";

/**
 * The reports, one call each: `GET /api/reports/<name>?from=YYYY-MM-DD&to=YYYY-MM-DD` (or `?period=this-month`;
 * neither: the last 12 months), answering the period and the report's columns and rows, as its CSV has them.
 */
export function reportRoutes({ reports }: Services): ApiRoute[] {
  return REPORTS.map((report): ApiRoute => ({
    method: "get",
    path: `/reports/${report.name}`,
    access: "admin",
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
}
