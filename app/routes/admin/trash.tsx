import { data, Link, useLocation, useNavigate } from "react-router";
import type { Route } from "./+types/trash";
import { can } from "#domain/capabilities.ts";
import { dateTime, longDate } from "#domain/dates.ts";
import { isTrashKind, kindsFor, TRASH_DAYS, TRASH_KIND } from "#domain/trash.ts";
import type { TrashEntry } from "#server/services/trash.ts";
import { ActionForm, PageAnswer, RowAnswer, useActionForm } from "#app/components/ActionForm.tsx";
import { DataTable } from "#app/components/DataTable.tsx";
import { Modal } from "#app/components/Modal.tsx";
import { ViewTabs } from "#app/components/admin/ViewTabs.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { forbidden, requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { DangerButton } from "#app/components/forms.tsx";

/** Entries per page. */
const PER_PAGE = 20;

/**
 * The trash (decision 039): site content, catalogue items and images deleted in the last 30 days, each kind shown to
 * the staff whose role opens its area (the page itself is part of the site's content area).
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "content");
  const kinds = kindsFor((area) => can(viewer.staffRole, area));
  const params = new URL(request.url).searchParams;
  const asked = params.get("kind");
  const kind = isTrashKind(asked) && kinds.includes(asked) ? asked : null;
  const { entries, page } = await context.services.trash.list(kind ? [kind] : kinds, params.get("page"), PER_PAGE);
  return { kinds, kind, entries, page, purging: params.get("purge"), timeZone: context.config.timeZone };
}

/** Restore, or "Delete now" (after its confirmation): each for the staff whose role opens the kind's area. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "content");
  const form = await request.formData();
  const kind = form.get("kind");
  const intent = form.get("intent");
  if (!isTrashKind(kind) || (intent !== "restore" && intent !== "purge"))
    throw data({ message: "Unknown form" }, { status: 400 });
  if (!can(viewer.staffRole, TRASH_KIND[kind].area)) throw forbidden();
  const id = String(form.get("id") ?? "");
  const { trash } = context.services;
  if (intent === "restore") {
    return formAction(form, {
      run: () => trash.restore(kind, id, viewer),
      success: (r) => `Restored: “${r.title}”.`,
    });
  }
  return formAction(form, {
    run: () => trash.purge(kind, id, viewer),
    success: (r) => `Deleted for good: “${r.title}”.`,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Trash" }, { name: "robots", content: "noindex" }];

const PURGE_FORM = "purge";
const restoreFormId = (recordId: string) => `restore:${recordId}`;

export default function Trash({ loaderData: { kinds, kind, entries, page, purging, timeZone } }: Route.ComponentProps) {
  const { pathname, search } = useLocation();
  const here = (changes: Record<string, string | null>) => {
    const params = new URLSearchParams(search);
    for (const [k, v] of Object.entries(changes)) {
      if (v === null) params.delete(k);
      else params.set(k, v);
    }
    return `${pathname}${params.size ? `?${params}` : ""}`;
  };
  const confirming = entries.find((e) => e.recordId === purging);
  return (
    <>
      <AdminHeader
        title="Trash"
        lead={`What was deleted in the last ${TRASH_DAYS} days. Restore puts it back as it was; after ${TRASH_DAYS} days it is deleted for good.`}
      />
      <PageAnswer form={PURGE_FORM} />
      <RowAnswer prefix="restore:" />
      {kinds.length > 1 ? (
        <ViewTabs
          label="Kinds of record"
          tabs={[
            { label: "Everything", to: "/trash", active: kind === null },
            ...kinds.map((k) => ({ label: TRASH_KIND[k].title, to: `/trash?kind=${k}`, active: kind === k })),
          ]}
        />
      ) : null}
      <DataTable
        testId="trash"
        caption="Deleted in the last 30 days"
        columns={[
          { header: "What", cell: (e: TrashEntry) => e.what },
          {
            header: "Name",
            typed: true,
            cell: (e: TrashEntry) => <span className="font-semibold">{e.title || "(no title)"}</span>,
          },
          {
            header: "Deleted",
            cell: (e: TrashEntry) => (
              <>
                <span className="whitespace-nowrap">{dateTime(e.deletedAt, timeZone)}</span>
                <span className="block text-xs text-mist">by {e.deletedBy}</span>
              </>
            ),
          },
          {
            header: "Deleted for good on",
            cell: (e: TrashEntry) => <span className="whitespace-nowrap">{longDate(e.purgeAt, timeZone)}</span>,
          },
          {
            header: "Actions",
            pinned: true,
            cell: (e: TrashEntry) => <RowActions entry={e} purgeHref={here({ purge: e.recordId })} />,
          },
        ]}
        rows={entries}
        rowKey={(e) => e.recordId}
        empty={kind ? `No ${TRASH_KIND[kind].title.toLowerCase()} in the trash.` : "The trash is empty."}
        page={page}
      />
      {confirming ? <ConfirmPurge key={confirming.recordId} entry={confirming} back={here({ purge: null })} /> : null}
    </>
  );
}

function RowActions({ entry, purgeHref }: { entry: TrashEntry; purgeHref: string }) {
  const form = useActionForm({ id: restoreFormId(entry.recordId) });
  return (
    <span className="flex flex-wrap items-center gap-2">
      <ActionForm handle={form} intent="restore" hidden={{ kind: entry.kind, id: entry.recordId }}>
        <button
          type="submit"
          className="btn-dark px-4 py-2 text-xs"
          disabled={form.busy}
          aria-label={`Restore ${entry.title}`}
        >
          {form.busy ? "Restoring…" : "Restore"}
        </button>
      </ActionForm>
      <Link
        to={purgeHref}
        preventScrollReset
        className="btn-outline px-4 py-2 text-xs"
        aria-label={`Delete now: ${entry.title}`}
      >
        Delete now
      </Link>
    </span>
  );
}

/** "Delete now" asks first: a dialog opened by its address (?purge={id}), so that it works without JavaScript. */
function ConfirmPurge({ entry, back }: { entry: TrashEntry; back: string }) {
  const navigate = useNavigate();
  const close = () => void navigate(back, { replace: true, preventScrollReset: true });
  const form = useActionForm({ id: PURGE_FORM, action: back, onSuccess: close });
  return (
    <Modal open onClose={close} title="Delete for good?" testId="purge-dialog">
      <ActionForm handle={form} intent="purge" hidden={{ kind: entry.kind, id: entry.recordId }}>
        <p className="text-sm text-ink">
          <strong>“{entry.title}”</strong> ({entry.what}) will be deleted for good. It cannot be restored afterwards.
        </p>
        <div className="mt-6 flex flex-wrap justify-end gap-3">
          <Link to={back} replace preventScrollReset className="btn-outline px-5 py-2 text-sm">
            Cancel
          </Link>
          <DangerButton busy={form.busy} busyLabel="Deleting…" compact>
            Delete for good
          </DangerButton>
        </div>
      </ActionForm>
    </Modal>
  );
}
