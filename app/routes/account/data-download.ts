import type { Route } from "./+types/data-download";
import { dayKey } from "#domain/dates.ts";
import { requireUser } from "#app/lib/guards.server.ts";

/** "Download my data (JSON)": the signed-in person's records as one file, never cached anywhere. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const data = await context.services.privacy.exportData(viewer.id);
  const name = `my-data-${dayKey(new Date(data.exportedAt), context.config.timeZone)}.json`;
  return new Response(JSON.stringify(data, null, 2) + "\n", {
    headers: {
      "Content-Type": "application/json; charset=utf-8",
      "Content-Disposition": `attachment; filename="${name}"`,
      "Cache-Control": "no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
