import { Link } from "react-router";
import type { Route } from "./+types/customers-import-one";
import { ActionForm, useActionForm, type ActionFormHandle } from "#app/components/ActionForm.tsx";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { CheckboxField, SelectField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { usePollWhile } from "#app/components/admin/use-poll-while.ts";
import { longDate } from "#domain/dates.ts";
import {
  IMPORT_FIELDS,
  IMPORT_FIELD_LABELS,
  IMPORT_PRESETS,
  IMPORT_PRESET_LABELS,
  IMPORT_STATE_LABELS,
  ROW_ACTIONS,
  ROW_ACTION_LABELS,
  type RowAction,
} from "#domain/imports.ts";
import { formatBytes } from "#domain/media.ts";

const PER_PAGE = 50;
/** How often the page asks again while the file is checked or imported. */
const POLL_MS = 2000;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "customers");
  const search = new URL(request.url).searchParams;
  const action = search.get("action");
  const record = await context.services.imports.get(String(params.id));
  const rows =
    record.state === "uploaded" || record.state === "checking"
      ? null
      : await context.services.imports.rows(record.id, action, search.get("page"), PER_PAGE);
  return {
    record,
    rows,
    action: (ROW_ACTIONS as readonly string[]).includes(action ?? "") ? action : null,
    timeZone: context.config.timeZone,
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "customers");
  const form = await request.formData();
  const id = String(params.id);
  if (form.get("intent") === "start") {
    return formAction(form, {
      run: () => context.services.imports.start(id, viewer),
      success: (r) => (r.started ? "The import has started" : "This import has already started"),
    });
  }
  // Another format chosen: its columns, not the ones shown for the one before. Every field's select is posted; one
  // left on "Not used" comes without a value.
  const current = await context.services.imports.get(id);
  const preset = String(form.get("preset") ?? "");
  const mapping =
    preset === current.preset
      ? Object.fromEntries(IMPORT_FIELDS.map((f) => [f, String(form.get(`mapping.${f}`) ?? "") || null]))
      : undefined;
  return formAction(form, {
    run: () => context.services.imports.checkFile(id, { preset, mapping, sendOptIn: form.get("sendOptIn") === "on" }),
    success: "The file is being checked",
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Import members" }, { name: "robots", content: "noindex" }];

/**
 * /customers/import/:id: the file's columns and the mapping (a preset or by hand), the dry run's verdict on every row
 * (paged, by action), then the import in the background with its progress; the page asks again every two seconds
 * while the server works (a Refresh link does the same without JavaScript).
 */
export default function CustomersImportOne({ loaderData: { record, rows, action } }: Route.ComponentProps) {
  const mappingForm = useActionForm({ id: "import-mapping" });
  const startForm = useActionForm({ id: "import-start" });
  const working = record.state === "checking" || record.state === "importing";
  usePollWhile(working, POLL_MS);
  const editable =
    record.state === "uploaded" || record.state === "checked" || (record.state === "failed" && !record.startedAt);
  return (
    <>
      <AdminHeader
        title="Import members"
        back={{ to: "/customers/import", label: "Imports" }}
        lead={`${record.fileName} · ${formatBytes(record.bytes)}`}
      />
      <ImportState record={record} working={working} />

      {editable ? <MappingForm record={record} mappingForm={mappingForm} /> : null}

      {rows ? <ImportRows record={record} rows={rows} action={action} startForm={startForm} /> : null}
    </>
  );
}

type Data = Route.ComponentProps["loaderData"];
type ImportRecord = Data["record"];

/** The import's state, its progress and its error. */
function ImportState({ record, working }: { record: ImportRecord; working: boolean }) {
  const done = record.state === "done" ? record.rowsTotal : record.cursor;
  return (
    <section className="mb-6 rounded-2xl bg-white p-6 ring-1 ring-linen" aria-live="polite" data-testid="import-state">
      <p className="text-sm">
        <Badge tone={record.state === "done" ? "green" : record.state === "failed" ? "red" : "grey"}>
          {IMPORT_STATE_LABELS[record.state]}
        </Badge>
        {record.state === "importing" || record.state === "done" ? (
          <span className="ml-3 text-mist" data-testid="import-progress">
            {done} of {record.rowsTotal} rows done
          </span>
        ) : null}
        {working ? (
          <Link to="." className="ml-3 text-clay underline" reloadDocument>
            Refresh
          </Link>
        ) : null}
      </p>
      {record.state === "importing" || record.state === "done" ? (
        <progress className="mt-3 w-full" max={Math.max(1, record.rowsTotal)} value={done} />
      ) : null}
      {record.error ? <p className="mt-3 text-sm text-clay">{record.error}</p> : null}
      {record.finishedAt && record.state === "done" ? (
        <p className="mt-3 text-sm text-mist">Finished on {longDate(record.finishedAt, "UTC")}.</p>
      ) : null}
    </section>
  );
}

/** The file's format and which of its columns fills each field. */
function MappingForm({ record, mappingForm }: { record: ImportRecord; mappingForm: ActionFormHandle }) {
  const columnOptions = record.headers.map((h, i) => ({
    value: String(i),
    label: h.replace(/^\uFEFF/, "") || `Column ${i + 1}`,
  }));
  return (
    <ActionForm
      handle={mappingForm}
      className="mb-6 grid gap-4 rounded-2xl bg-white p-6 ring-1 ring-linen sm:grid-cols-2 sm:p-8"
    >
      <h2 className="text-lg text-forest sm:col-span-2">Columns</h2>
      <SelectField
        label="The file is"
        name="preset"
        placeholder="Choose"
        defaultValue={record.preset}
        options={IMPORT_PRESETS.map((p) => ({ value: p, label: IMPORT_PRESET_LABELS[p] }))}
      />
      <p className="self-end text-xs text-mist">Choosing another format sets its columns: change them after.</p>
      {IMPORT_FIELDS.map((f) => (
        <SelectField
          key={`${record.preset}-${f}`}
          label={IMPORT_FIELD_LABELS[f]}
          name={`mapping.${f}`}
          placeholder="Not used"
          defaultValue={record.mapping[f] === null ? "" : String(record.mapping[f])}
          options={columnOptions}
        />
      ))}
      {record.ignored.length ? (
        <p className="text-sm text-mist sm:col-span-2" data-testid="ignored-columns">
          Ignored columns (nothing is read from them): {record.ignored.join(", ")}.
        </p>
      ) : null}
      <CheckboxField
        name="sendOptIn"
        label="Send the newsletter's confirmation mail to subscribers the file does not say confirmed (without it they are not subscribed)"
      />
      <p className="text-xs text-mist sm:col-span-2">
        No other mail is sent: imported customers set their password with “Forgot password”. Memberships whose end date
        has passed are not imported.
      </p>
      <div className="sm:col-span-2">
        <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={mappingForm.busy}>
          {record.state === "uploaded" ? "Check the file" : "Check the file again"}
        </button>
      </div>
    </ActionForm>
  );
}

/** The dry run's verdict on every row, by action, and the button that imports them. */
function ImportRows({
  record,
  rows,
  action,
  startForm,
}: {
  record: ImportRecord;
  rows: NonNullable<Data["rows"]>;
  action: string | null;
  startForm: ActionFormHandle;
}) {
  const acted = record.counts.create + record.counts.update;
  return (
    <>
      <nav aria-label="Rows by what they do" className="mb-4 flex flex-wrap gap-2 text-sm" data-testid="import-counts">
        <Link to="?" className={action === null ? "font-semibold text-forest" : "text-clay underline"}>
          All {record.counts.create + record.counts.update + record.counts.skip + record.counts.refuse}
        </Link>
        {ROW_ACTIONS.map((a) => (
          <Link
            key={a}
            to={`?action=${a}`}
            className={action === a ? "font-semibold text-forest" : "text-clay underline"}
          >
            {ROW_ACTION_LABELS[a]}: {record.counts[a]}
          </Link>
        ))}
      </nav>
      {record.state === "checked" ? (
        <ActionForm handle={startForm} intent="start" className="mb-6 flex flex-wrap items-center gap-4">
          <button type="submit" className="btn-primary px-6 py-2.5 text-sm" disabled={startForm.busy || acted === 0}>
            Import {acted} {acted === 1 ? "row" : "rows"}
          </button>
          <span className="text-sm text-mist">
            Refused and unchanged rows are left out. Importing the same file again changes nothing.
          </span>
        </ActionForm>
      ) : null}
      <DataTable
        caption="Rows of the file"
        testId="import-rows"
        rows={rows.rows}
        rowKey={(r) => String(r.row)}
        page={rows.page}
        empty="No row here."
        columns={[
          { header: "Row", cell: (r) => String(r.row) },
          { header: "Email", typed: true, cell: (r) => r.email ?? "" },
          { header: "Name", typed: true, cell: (r) => r.name ?? "" },
          { header: "Membership ends", cell: (r) => (r.membershipEnds ? longDate(r.membershipEnds, "UTC") : "") },
          {
            header: "Does",
            cell: (r) => <Badge tone={TONES[r.action]}>{ROW_ACTION_LABELS[r.action]}</Badge>,
          },
          { header: "Why", typed: true, cell: (r) => r.reason ?? "" },
        ]}
      />
    </>
  );
}

const TONES: Record<RowAction, "green" | "blue" | "grey" | "red"> = {
  create: "green",
  update: "blue",
  skip: "grey",
  refuse: "red",
};
