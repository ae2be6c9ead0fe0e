import type { Services } from "#server/services/index.ts";
import { id, type ApiRoute } from "./route";

/** The background job queue, for the administrator: what is pending or failed, and running a failed job again. */
export function jobRoutes({ jobs }: Services): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/jobs",
      access: "staff",
      area: "settings",
      what: "pending and failed background jobs",
      handler: () => jobs.list(),
    },
    {
      method: "post",
      path: "/jobs/:id/retry",
      access: "staff",
      area: "settings",
      what: "run a failed background job again",
      sample: { ids: { id: "failed job" } },
      handler: async (req) => {
        await jobs.retry(id(req));
        return { acknowledged: true };
      },
    },
  ];
}
