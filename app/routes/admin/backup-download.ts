import { createReadStream } from "node:fs";
import { stat } from "node:fs/promises";
import { Readable } from "node:stream";
import { data } from "react-router";
import type { Route } from "./+types/backup-download";
import { requireStaff } from "#app/lib/guards.server.ts";

/** One backup archive, streamed to the admin who asked (its name must be one of BACKUP_DIR's archives). */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "backups");
  const file = await context.services.backups.file(params.name);
  if (!file) throw data({ message: "No backup with this name." }, { status: 404 });
  const { size } = await stat(file);
  return new Response(Readable.toWeb(createReadStream(file)) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/x-tar",
      "Content-Length": String(size),
      "Content-Disposition": `attachment; filename="${params.name}"`,
      // no-transform: the entries are gzipped already, and the browser shows the download's progress by its length.
      "Cache-Control": "no-store, no-transform",
    },
  });
}
