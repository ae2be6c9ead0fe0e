import { data } from "react-router";
import type { Route } from "./+types/backups";
import { ActionForm, useActionForm } from "../../components/ActionForm";
import { DataTable, type Column } from "../../components/DataTable";
import { formAction } from "../../lib/form.server";
import { requireStaff } from "../../lib/guards.server";
import type { BackupInfo } from "../../../server/services/backups";
import { dateTime } from "../../../domain/dates";
import { count, fileSize } from "../../../domain/format";
import { AdminHeader } from "../../components/admin/AdminHeader";

const SCREEN = "/backups";

/** "1 order", "12,400 orders". */
const some = (n: number, thing: string) => `${count(n)} ${thing}${n === 1 ? "" : "s"}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "backups");
  const backups = context.services.backups;
  const [list, inProgress] = await Promise.all([backups.list(), backups.inProgress()]);
  return { backups: list, inProgress, dir: backups.dir, keep: backups.keep, timeZone: context.config.timeZone };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireStaff(request, context, "backups");
  const form = await request.formData();
  if (form.get("intent") === "backup") {
    return formAction(form, {
      run: () => context.services.backups.requestNow(),
      success: (queued) =>
        queued
          ? "The backup has started. It appears in the list when it is written."
          : "A backup is already waiting to run; it appears in the list when it is written.",
    });
  }
  throw data({ message: "Unknown form" }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: "Backups" }, { name: "robots", content: "noindex" }];

/** The backups in BACKUP_DIR, newest first: when, why, how big, what they hold, and each one's download. */
export default function Backups({ loaderData: { backups, inProgress, dir, keep, timeZone } }: Route.ComponentProps) {
  const columns: Column<BackupInfo>[] = [
    { header: "Taken", cell: (b) => dateTime(b.createdAt, timeZone) },
    { header: "Made", cell: (b) => b.reason },
    { header: "Size", cell: (b) => fileSize(b.size) },
    {
      header: "Rows",
      cell: (b) =>
        b.counts ? (
          <span>
            {count(b.counts.total)} in all: {some(b.counts.orders, "order")}, {some(b.counts.accounts, "account")},{" "}
            {some(b.counts.images, "image")}, {some(b.counts.messages, "message")}
          </span>
        ) : (
          "The file cannot be read as a backup."
        ),
    },
    { header: "Version", cell: (b) => (b.appVersion ? `${b.appVersion} (${b.migration})` : "—") },
    {
      header: "Download",
      pinned: true,
      cell: (b) => (
        <a href={`/backups/${b.name}`} download className="btn-outline px-4 py-1.5 text-xs">
          Download<span className="sr-only"> the backup of {dateTime(b.createdAt, timeZone)}</span>
        </a>
      ),
    },
  ];
  return (
    <>
      <AdminHeader
        title="Backups"
        lead={
          <>
            The whole database (content, accounts, orders, images, settings, activity, waiting mails) in one file, taken
            every day at 03:00 UTC into <code className="break-all">{dir}</code>; the newest {keep} are kept. Restore
            one with <code>npm run restore FILE</code> into an empty data folder or database (see the README).
          </>
        }
        actions={<BackUpNow inProgress={inProgress} />}
      />
      <DataTable
        testId="backups"
        caption="Backups, newest first"
        columns={columns}
        rows={backups}
        rowKey={(b) => b.name}
        empty="No backup yet. The first daily one is taken at 03:00 UTC, or start one now."
      />
    </>
  );
}

function BackUpNow({ inProgress }: { inProgress: boolean }) {
  const form = useActionForm({ id: "backup-now", action: SCREEN });
  return (
    <ActionForm handle={form} intent="backup">
      <button type="submit" className="btn-primary" disabled={form.busy}>
        {form.busy ? "Starting…" : "Back up now"}
      </button>
      {inProgress ? (
        <p className="mt-2 text-xs text-mist" role="status">
          A backup is waiting or running.
        </p>
      ) : null}
    </ActionForm>
  );
}
