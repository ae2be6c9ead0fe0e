import { Readable } from "node:stream";
import { z } from "zod";
import type { Services } from "#server/services/index.ts";
import { badRequest } from "#server/lib/errors.ts";
import { parseWith } from "#domain/validation.ts";
import { added, id, paged, perPage, updated, type ApiRoute } from "./route";

/** A small file sent as JSON text (a script's; a browser sends the file as multipart to the same address). */
const jsonUploadSchema = z.object({
  fileName: z.string().trim().max(200).optional(),
  csv: z.string({ error: "Send the file's text in csv, or upload it as multipart/form-data" }).min(1, {
    error: "The file is empty: it has no header row.",
  }),
});

/**
 * Member imports from CSV (issue 37 part 3, decision 079), for the staff whose role opens customers (the area that
 * gives memberships). Listed before the customers' calls: /customers/:id would take "imports" for an id.
 */
export function importRoutes({ imports }: Services): ApiRoute[] {
  return [
    {
      method: "get",
      path: "/customers/imports",
      access: "staff",
      area: "customers",
      what: "member imports, newest first, with their state and counts (?page= ?limit=)",
      handler: async (req, res) => {
        const { imports: rows, page } = await imports.list(req.query.page, perPage(req));
        return paged(res, rows, page);
      },
    },
    {
      method: "post",
      path: "/customers/imports",
      access: "staff",
      area: "customers",
      what: "upload a CSV of members: multipart/form-data with the file in file (at most 50 MB), or JSON {fileName, csv} for a small one; answers the header and the proposed mapping",
      sample: { body: { fileName: "members.csv", csv: "email,name\\nimported@example.org,Imported\\n" } },
      handler: async (req, res, viewer) => {
        const parsed = parseWith(jsonUploadSchema, req.body ?? {});
        if (!parsed.ok) throw badRequest(parsed.errors);
        const record = await imports.upload(
          Readable.from([Buffer.from(parsed.data.csv, "utf8")]),
          parsed.data.fileName ?? "members.csv",
          viewer,
        );
        return { ...added(res, record.id), ...record };
      },
    },
    {
      method: "get",
      path: "/customers/imports/:id",
      access: "staff",
      area: "customers",
      what: "one import: its columns, mapping, ignored columns, state, counts of the dry run and progress (cursor of rowsTotal)",
      sample: { ids: { id: "import" } },
      handler: (req) => imports.get(id(req)),
    },
    {
      method: "get",
      path: "/customers/imports/:id/rows",
      access: "staff",
      area: "customers",
      what: "the dry run's rows in the file's order, each with its action (create, update, skip, refuse) and reason (?action= ?page= ?limit=)",
      sample: { ids: { id: "import" } },
      handler: async (req, res) => {
        const { rows, page } = await imports.rows(id(req), req.query.action, req.query.page, perPage(req, 50));
        return paged(res, rows, page);
      },
    },
    {
      method: "put",
      path: "/customers/imports/:id/mapping",
      access: "staff",
      area: "customers",
      what: "choose the preset (ours, ghost, pmpro, memberpress, custom), the columns (mapping: field to column number) and sendOptIn, and check the file again (the dry run, in the background)",
      sample: { ids: { id: "import" }, body: { preset: "custom" } },
      handler: async (req) => updated(true, { ...(await imports.checkFile(id(req), req.body)) }),
    },
    {
      method: "post",
      path: "/customers/imports/:id/start",
      access: "staff",
      area: "customers",
      what: "import the checked rows in the background (once: starting again changes nothing)",
      sample: { ids: { id: "import" } },
      handler: async (req, _res, viewer) => {
        const { record, started } = await imports.start(id(req), viewer);
        return updated(started, { ...record });
      },
    },
  ];
}
