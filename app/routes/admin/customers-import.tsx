import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/customers-import";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { dateTime } from "#domain/dates.ts";
import { IMPORT_PRESET_LABELS, IMPORT_STATE_LABELS, MAX_IMPORT_BYTES } from "#domain/imports.ts";
import { formatBytes } from "#domain/media.ts";

const PER_PAGE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "customers");
  const page = new URL(request.url).searchParams.get("page");
  return { ...(await context.services.imports.list(page, PER_PAGE)), timeZone: context.config.timeZone };
}

export const meta: Route.MetaFunction = () => [{ title: "Import members" }, { name: "robots", content: "noindex" }];

/**
 * /customers/import: upload a CSV of members (the file streams to the server as a plain multipart form, so it works
 * without JavaScript; the answer is the import's own page), and the imports made so far.
 */
export default function CustomersImport({ loaderData: { imports, page, timeZone } }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const error = params.get("error");
  return (
    <>
      <AdminHeader
        title="Import members"
        back={{ to: "/customers", label: "Customers" }}
        lead="Bring customers, their memberships and newsletter subscribers from a CSV file: this site's customers export, or the members export of Ghost, Paid Memberships Pro or MemberPress. You choose the columns and see what each row will do before anything is imported."
      />
      {error ? (
        <p role="alert" className="mb-4 rounded-xl bg-white px-4 py-3 text-sm text-clay ring-1 ring-linen">
          {error}
        </p>
      ) : null}
      <form
        method="post"
        action="/api/customers/imports"
        encType="multipart/form-data"
        className="grid gap-4 rounded-2xl bg-white p-6 ring-1 ring-linen sm:grid-cols-[1fr_auto] sm:items-end sm:p-8"
      >
        <div>
          <label htmlFor="import-file" className="field-label">
            CSV file (UTF-8, at most {formatBytes(MAX_IMPORT_BYTES)})
          </label>
          <input id="import-file" name="file" type="file" accept=".csv,text/csv" required className="field-input" />
        </div>
        <button type="submit" className="btn-primary px-6 py-2.5 text-sm">
          Upload and choose columns
        </button>
      </form>
      <div className="mt-8">
        <DataTable
          caption="Imports"
          testId="imports"
          rows={imports}
          rowKey={(i) => i.id}
          page={page}
          empty="Nothing has been imported yet."
          columns={[
            {
              header: "File",
              typed: true,
              cell: (i) => (
                <Link to={`/customers/import/${i.id}`} className="font-semibold text-forest hover:text-clay">
                  {i.fileName}
                </Link>
              ),
            },
            { header: "Format", cell: (i) => IMPORT_PRESET_LABELS[i.preset] },
            {
              header: "State",
              cell: (i) => (
                <Badge tone={i.state === "done" ? "green" : i.state === "failed" ? "red" : "grey"}>
                  {IMPORT_STATE_LABELS[i.state]}
                </Badge>
              ),
            },
            { header: "Rows", cell: (i) => (i.rowsTotal ? String(i.rowsTotal) : "") },
            { header: "Uploaded", cell: (i) => dateTime(i.createdAt, timeZone) },
          ]}
        />
      </div>
    </>
  );
}
