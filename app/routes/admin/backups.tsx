import { data } from "react-router";
import type { Route } from "./+types/backups";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { DataTable, type Column } from "#app/components/DataTable.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { drillRequestSchema, type BackupInfo, type DrillInfo } from "#server/services/backups.ts";
import { dateTime } from "#domain/dates.ts";
import { count, fileSize } from "#domain/format.ts";
import { DRILL_STATE_LABELS, PLACE_LABELS, placesLabel, type BackupPlace } from "#domain/backups.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { usePollWhile } from "#app/components/admin/use-poll-while.ts";

const SCREEN = "/backups";
/** While a backup or a restore test waits or runs, the screen looks again this often. */
const POLL_MS = 3_000;

/** "1 order", "12,400 orders". */
const some = (n: number, thing: string) => `${count(n)} ${thing}${n === 1 ? "" : "s"}`;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "backups");
  const backups = context.services.backups;
  const [{ backups: list, bucketError }, inProgress, drills] = await Promise.all([
    backups.list(),
    backups.inProgress(),
    backups.drills(),
  ]);
  return {
    backups: list,
    bucketError,
    drills,
    inProgress,
    dir: backups.dir,
    keep: backups.keep,
    target: backups.target ?? null,
    timeZone: context.config.timeZone,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "backups");
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
  if (form.get("intent") === "drill") {
    return formAction(form, {
      schema: drillRequestSchema,
      run: (value) => context.services.backups.requestDrill(value, viewer.email),
      success:
        "The restore test has started. Its result appears under Restore tests when it has run (a large backup takes minutes).",
    });
  }
  throw data({ message: "Unknown form" }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: "Backups" }, { name: "robots", content: "noindex" }];

/** The backups on this server and in the bucket, newest first: when, why, how big, what they hold, where they are. */
export default function Backups({
  loaderData: { backups, bucketError, drills, inProgress, dir, keep, target, timeZone },
}: Route.ComponentProps) {
  const working = inProgress || drills.some((d) => d.state === "waiting" || d.state === "running");
  usePollWhile(working, POLL_MS);
  const columns = backupColumns(timeZone);
  return (
    <>
      <AdminHeader
        title="Backups"
        lead={
          <>
            The whole database (content, accounts, orders, images, settings, activity, waiting mails) in one file, taken
            every day at 03:00 UTC into <code className="break-all">{dir}</code>
            {target ? (
              <>
                {" "}
                and copied to the bucket <code className="break-all">{target}</code>
              </>
            ) : null}
            ; the newest {keep} are kept{target ? " in each place" : ""}. A restore test restores a backup into a
            scratch database and counts its rows. Restore one for real with <code>npm run restore FILE</code> into an
            empty data folder or database (see docs/operations/backups.md).
          </>
        }
        actions={<BackUpNow inProgress={inProgress} />}
      />
      {bucketError ? (
        <p className="mb-4 rounded-xl bg-white p-4 text-sm text-ink ring-1 ring-linen" role="alert">
          {bucketError}. The list shows the backups on this server only.
        </p>
      ) : null}
      <DataTable
        testId="backups"
        caption="Backups, newest first"
        columns={columns}
        rows={backups}
        rowKey={(b) => b.name}
        empty="No backup yet. The first daily one is taken at 03:00 UTC, or start one now."
      />
      <h2 className="mt-10 mb-4 text-xl text-forest">Restore tests</h2>
      <DataTable
        testId="backup-drills"
        caption="Restore tests, newest first"
        columns={drillColumns(timeZone)}
        rows={drills}
        rowKey={(d) => d.id}
        empty="No restore test yet. Test a backup from the list above: it is restored into a scratch database, its rows counted and checked, and the scratch database removed."
      />
    </>
  );
}

function backupColumns(timeZone: string): Column<BackupInfo>[] {
  const taken = (b: BackupInfo) => dateTime(b.createdAt, timeZone);
  return [
    { header: "Taken", cell: taken },
    { header: "Made", cell: (b) => b.reason },
    { header: "Where", cell: (b) => placesLabel(b.places) },
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
      header: "Actions",
      pinned: true,
      cell: (b) => (
        <div className="flex flex-wrap gap-2">
          {b.places.includes("server") ? (
            <a href={`/backups/${b.name}`} download className="btn-outline px-4 py-1.5 text-xs">
              Download<span className="sr-only"> the backup of {taken(b)}</span>
            </a>
          ) : null}
          {b.counts
            ? b.places.map((place) => (
                <DrillButton key={place} name={b.name} place={place} both={b.places.length > 1} of={taken(b)} />
              ))
            : null}
        </div>
      ),
    },
  ];
}

function drillColumns(timeZone: string): Column<DrillInfo>[] {
  return [
    { header: "Asked", cell: (d) => dateTime(d.requestedAt, timeZone) },
    {
      header: "Backup",
      cell: (d) => (
        <span>
          <code className="break-all text-xs">{d.backupName}</code>
          <br />
          {d.place === "bucket" ? "From the bucket" : "From this server"}
        </span>
      ),
    },
    { header: "By", cell: (d) => d.requestedBy, typed: true },
    { header: "Result", cell: (d) => <DrillResult drill={d} /> },
  ];
}

function DrillResult({ drill }: { drill: DrillInfo }) {
  const r = drill.report;
  if (drill.state === "failed") {
    return (
      <span>
        <strong>{DRILL_STATE_LABELS.failed}:</strong> {drill.error}
      </span>
    );
  }
  if (drill.state !== "passed" || !r) return <span role="status">{DRILL_STATE_LABELS[drill.state]}…</span>;
  return (
    <div>
      <p>
        <strong>{DRILL_STATE_LABELS.passed}:</strong> {count(r.rows)} rows restored in {some(r.tables.length, "table")},
        as many as the backup holds, every checksum matching; in {(r.ms / 1000).toFixed(1)} s.
        {r.archive.storedSha256 ? " The file matched the checksum stored with it in the bucket." : ""}
      </p>
      <details className="mt-2">
        <summary className="cursor-pointer text-sm text-forest">Rows and checksums per table</summary>
        <table className="mt-2 text-xs" data-testid="drill-tables">
          <thead>
            <tr>
              <th className="pr-3 text-left">Table</th>
              <th className="pr-3 text-right">In the backup</th>
              <th className="pr-3 text-right">Restored</th>
              <th className="text-left">SHA-256</th>
            </tr>
          </thead>
          <tbody>
            {r.tables.map((t) => (
              <tr key={t.name}>
                <td className="pr-3">{t.name}</td>
                <td className="pr-3 text-right">{count(t.rows)}</td>
                <td className="pr-3 text-right">{count(t.restored)}</td>
                <td>
                  <code title={t.sha256}>{t.sha256.slice(0, 16)}…</code>
                </td>
              </tr>
            ))}
            <tr>
              <td className="pr-3">Waiting mails and tasks</td>
              <td className="pr-3 text-right">{count(r.jobs.rows)}</td>
              <td className="pr-3 text-right">{count(r.jobs.rows)}</td>
              <td>
                <code title={r.jobs.sha256}>{r.jobs.sha256.slice(0, 16)}…</code>
              </td>
            </tr>
          </tbody>
        </table>
        <p className="mt-2 text-xs text-mist">
          The whole file: {fileSize(r.archive.size)}, SHA-256 <code className="break-all">{r.archive.sha256}</code>
        </p>
      </details>
    </div>
  );
}

function DrillButton({ name, place, both, of }: { name: string; place: BackupPlace; both: boolean; of: string }) {
  const form = useActionForm({ id: `drill-${place}-${name}`, action: SCREEN });
  const label = both ? `Test restore (${PLACE_LABELS[place].toLowerCase()})` : "Test restore";
  return (
    <ActionForm handle={form} intent="drill" hidden={{ name, place }}>
      <button type="submit" className="btn-outline px-4 py-1.5 text-xs" disabled={form.busy}>
        {form.busy ? "Starting…" : label}
        <span className="sr-only">
          {" "}
          of the backup of {of}
          {both ? "" : `, ${PLACE_LABELS[place].toLowerCase()}`}
        </span>
      </button>
    </ActionForm>
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
