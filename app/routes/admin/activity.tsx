import { Form, Link, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/activity";
import { ACTIVITY_KINDS, activityFiltersFromSearch } from "#domain/activity.ts";
import { Badge, DataTable } from "#app/components/DataTable.tsx";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { forbidden, requireStaff } from "#app/lib/guards.server.ts";
import { activityActions } from "#domain/vocabulary.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { dateTime } from "#domain/dates.ts";
import { can } from "#domain/capabilities.ts";
import { whenRefused } from "#app/lib/refusal.server.ts";
import type { VersionPlan } from "#server/services/versions.ts";
import type { DescribedEntry } from "#server/services/activity.ts";
import { ActionForm, PageAnswer, useActionForm } from "#app/components/ActionForm.tsx";
import { Modal } from "#app/components/Modal.tsx";
import { formAction } from "#app/lib/form.server.ts";

/** Entries per page. */
const PER_PAGE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "activity");
  const params = new URL(request.url).searchParams;
  const filters = activityFiltersFromSearch(params);
  const [{ entries, page }, people] = await Promise.all([
    context.services.activity.list(params.get("page"), PER_PAGE, filters),
    context.services.activity.people(),
  ]);
  const canRestore = can(viewer.staffRole, "content");
  // Deleted records still in the trash: their delete entry links to it (one query for the page).
  const trashed = await context.services.trash.holding(
    entries.filter((e) => e.action === "delete").map((e) => e.recordId),
  );
  return {
    restore: canRestore ? await versionToRestore(context, params.get("restore")) : null,
    canRestore,
    inTrash: Object.fromEntries(trashed),
    page,
    entries,
    filters,
    // The person filtered on stays a choice even if they are no longer an admin.
    people: filters.who && !people.includes(filters.who) ? [filters.who, ...people] : people,
    kinds: ACTIVITY_KINDS.map((k) => ({ value: k.entity, label: k.title })),
    timeZone: context.config.timeZone,
  };
}

/** The confirmation of "Restore this version" (?restore={entry id}): what it would change, or why it cannot. */
async function versionToRestore(
  context: Route.LoaderArgs["context"],
  entryId: string | null,
): Promise<{ plan: VersionPlan } | { refused: string } | null> {
  if (!entryId) return null;
  return whenRefused(
    context.services.versions.plan(entryId).then((plan) => ({ plan })),
    (status) => status < 500,
    ({ message }) => ({ refused: message }),
  );
}

/** "Restore this version": the entry's older values written back as a new change (decision 039). */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "activity");
  if (!can(viewer.staffRole, "content")) throw forbidden();
  const form = await request.formData();
  const entryId = String(form.get("entry") ?? "");
  return formAction(form, {
    run: () => context.services.versions.restore(entryId, viewer),
    success: (r) => (r.modified ? "Version restored" : "Nothing to restore: it has these values already."),
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Activity log" }, { name: "robots", content: "noindex" }];

const VERB = {
  create: "Added",
  update: "Changed",
  delete: "Deleted",
  restore: "Restored",
  purge: "Deleted for good",
} as const;

const RESTORE_FORM = "restore-version";

/** Whether an entry is a change of site content whose version can be written back. */
const restorable = (e: DescribedEntry) =>
  e.entity.startsWith("content:") &&
  (e.action === "update" || e.action === "create") &&
  e.changes.some((c) => c.field !== "position");

/** Every admin change, newest first: who, when, which record of which section, each field before → after. */
export default function Activity({
  loaderData: { entries, page, filters, people, kinds, timeZone, restore, canRestore, inTrash },
}: Route.ComponentProps) {
  const filtered = Object.keys(filters).length > 0;
  const { search } = useLocation();
  const restoreHref = (id: string) => {
    const params = new URLSearchParams(search);
    params.set("restore", id);
    return `?${params}`;
  };
  return (
    <>
      <AdminHeader title="Activity log" lead="Every change made in the back office, newest first." />
      <PageAnswer form={RESTORE_FORM} />
      {restore ? <RestoreVersion key={search} restore={restore} /> : null}
      <ActivityFilters filters={filters} people={people} kinds={kinds} filtered={filtered} />
      <DataTable
        testId="activity"
        columns={[
          {
            header: "When",
            cell: (e) => <span className="whitespace-nowrap">{dateTime(e.createdAt, timeZone)}</span>,
          },
          { header: "Who", typed: true, cell: (e) => e.actorEmail },
          {
            header: "What",
            typed: true,
            cell: (e) => <WhatCell entry={e} canRestore={canRestore} inTrash={inTrash} restoreHref={restoreHref} />,
          },
          {
            header: "Changes",
            typed: true,
            cell: (e) => <ChangesCell entry={e} />,
          },
        ]}
        rows={entries}
        rowKey={(e) => e.id}
        empty={filtered ? "No change matches these filters." : "No changes yet."}
        page={page}
      />
    </>
  );
}

type ActivityData = Route.ComponentProps["loaderData"];
type Entry = ActivityData["entries"][number];

/** Who, which kind of record, from and until when: a GET form, so that every view has an address. */
function ActivityFilters({
  filters,
  people,
  kinds,
  filtered,
}: Pick<ActivityData, "filters" | "people" | "kinds"> & { filtered: boolean }) {
  return (
    <Form
      method="get"
      key={JSON.stringify(filters)}
      className="mb-6 grid grid-cols-2 gap-x-4 gap-y-3 rounded-2xl bg-white p-5 ring-1 ring-linen lg:grid-cols-4"
      data-testid="activity-filters"
    >
      <SelectField
        label="Person"
        name="who"
        options={people.map((p) => ({ value: p, label: p }))}
        placeholder="Anyone"
        defaultValue={filters.who ?? ""}
        className="col-span-2 lg:col-span-1"
      />
      <SelectField
        label="Kind of record"
        name="kind"
        options={kinds}
        placeholder="Any"
        defaultValue={filters.kind ?? ""}
        className="col-span-2 lg:col-span-1"
      />
      <TextField label="From" name="from" type="date" defaultValue={filters.from ?? ""} />
      <TextField label="Until" name="to" type="date" defaultValue={filters.to ?? ""} />
      <div className="col-span-2 flex items-end gap-3 lg:col-span-4">
        <button type="submit" className="btn-dark px-5 py-2.5">
          Filter
        </button>
        {filtered ? (
          <Link to="/activity" className="py-2.5 text-sm font-semibold text-clay hover:underline">
            Clear
          </Link>
        ) : null}
      </div>
    </Form>
  );
}

/** What changed: the action, the record (a link when it still exists), and the ways back to an earlier state. */
function WhatCell({
  entry: e,
  canRestore,
  inTrash,
  restoreHref,
}: {
  entry: Entry;
  canRestore: boolean;
  inTrash: ActivityData["inTrash"];
  restoreHref: (id: string) => string;
}) {
  return (
    <>
      <span className="flex flex-wrap items-center gap-2">
        <Badge tone={activityActions.tone(e.action)}>{VERB[e.action]}</Badge>
        <span className="font-semibold">{e.kind}</span>
      </span>
      {e.href ? (
        <Link to={e.href} className="mt-1 block text-clay hover:underline">
          {e.recordTitle || "Open"}
        </Link>
      ) : (
        <span className="mt-1 block text-mist">{e.recordTitle || "(no title)"}</span>
      )}
      {canRestore && restorable(e) ? (
        <Link
          to={restoreHref(e.id)}
          preventScrollReset
          className="mt-2 inline-block text-xs font-semibold text-clay underline underline-offset-2 hover:text-clay-dark"
        >
          Restore this version
        </Link>
      ) : null}
      {e.action === "delete" && inTrash[e.recordId] ? (
        <Link
          to={`/trash?kind=${inTrash[e.recordId]}`}
          className="mt-2 inline-block text-xs font-semibold text-clay underline underline-offset-2 hover:text-clay-dark"
        >
          Restore from the trash
        </Link>
      ) : null}
    </>
  );
}

/** Each field before → after (or the value added or deleted). */
function ChangesCell({ entry: e }: { entry: Entry }) {
  return (
    <ul className="space-y-1 text-xs">
      {e.changes.map((c) => (
        <li key={c.field}>
          <span className="font-semibold">{c.label}</span>:{" "}
          {e.action === "update" ? (
            <>
              <del className="text-mist">{c.before.slice(0, 80)}</del> <span aria-label="became">→</span>{" "}
              <ins className="no-underline">{c.after.slice(0, 80)}</ins>
            </>
          ) : (
            (e.action === "delete" || e.action === "purge" ? c.before : c.after).slice(0, 80)
          )}
        </li>
      ))}
    </ul>
  );
}

/**
 * The confirmation of "Restore this version", opened by its address (?restore={entry id}) so that it works without
 * JavaScript: each field with its value now and the value it gets back, or why this version cannot be restored.
 */
function RestoreVersion({ restore }: { restore: { plan: VersionPlan } | { refused: string } }) {
  const { pathname, search } = useLocation();
  const navigate = useNavigate();
  const params = new URLSearchParams(search);
  params.delete("restore");
  const back = `${pathname}${params.size ? `?${params}` : ""}`;
  const close = () => void navigate(back, { replace: true, preventScrollReset: true });
  const form = useActionForm({ id: RESTORE_FORM, action: back, onSuccess: close });
  const cancel = (
    <Link to={back} replace preventScrollReset className="btn-outline px-5 py-2 text-sm">
      {"plan" in restore && restore.plan.changes.length ? "Cancel" : "Close"}
    </Link>
  );
  if (!("plan" in restore)) {
    return (
      <Modal open onClose={close} title="This version cannot be restored" testId="restore-version">
        <p className="text-sm text-ink" role="alert">
          {restore.refused}
        </p>
        {/in the trash/.test(restore.refused) ? (
          <p className="mt-3 text-sm">
            <Link to="/trash" className="font-semibold text-clay hover:underline">
              Open the trash
            </Link>
          </p>
        ) : null}
        <div className="mt-6 flex justify-end">{cancel}</div>
      </Modal>
    );
  }
  const { plan } = restore;
  return (
    <Modal
      open
      onClose={close}
      title="Restore this version?"
      subtitle={`${plan.kind}${plan.recordTitle ? ` “${plan.recordTitle}”` : ""}`}
      testId="restore-version"
    >
      {plan.changes.length ? (
        <ActionForm handle={form} hidden={{ entry: plan.entryId }}>
          <p className="text-sm text-ink">These fields get back their earlier values, as a new change in this log:</p>
          <dl className="mt-4 space-y-3 text-sm">
            {plan.changes.map((c) => (
              <div key={c.field} className="rounded-xl bg-sand px-4 py-3">
                <dt className="font-semibold">{c.label}</dt>
                <dd className="mt-1 break-words">
                  <span className="text-mist">Now: </span>
                  <del className="text-mist">{c.now.slice(0, 200)}</del>
                </dd>
                <dd className="break-words">
                  <span className="text-mist">Restored: </span>
                  <ins className="no-underline">{c.restored.slice(0, 200)}</ins>
                </dd>
              </div>
            ))}
          </dl>
          <div className="mt-6 flex flex-wrap justify-end gap-3">
            {cancel}
            <button type="submit" className="btn-dark px-5 py-2 text-sm" disabled={form.busy}>
              {form.busy ? "Restoring…" : "Restore this version"}
            </button>
          </div>
        </ActionForm>
      ) : (
        <>
          <p className="text-sm text-ink" role="status">
            Nothing to restore: it has these values already.
          </p>
          <div className="mt-6 flex justify-end">{cancel}</div>
        </>
      )}
    </Modal>
  );
}
