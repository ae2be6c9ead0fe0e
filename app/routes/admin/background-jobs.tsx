import { data } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/background-jobs";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Badge, DataTable, type Column } from "#app/components/DataTable.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import type { JobRow } from "#server/services/jobs.ts";
import { dateTime } from "#domain/dates.ts";
import { jobStatuses } from "#domain/vocabulary.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

const SCREEN = "/background-jobs";

/** What a Retry posts: the failed job's id. */
const retryJobSchema = z.object({ id: z.uuid({ error: "Unknown job." }) });

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "settings");
  const { pending, failed } = await context.services.jobs.list();
  return { pending, failed, timeZone: context.config.timeZone };
}

export async function action({ request, context }: Route.ActionArgs) {
  await requireStaff(request, context, "settings");
  const form = await request.formData();
  if (form.get("intent") === "retry") {
    return formAction(form, {
      schema: retryJobSchema,
      run: ({ id }) => context.services.jobs.retry(id),
      success: "The job will run again.",
    });
  }
  throw data({ message: "Unknown form" }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: "Background jobs" }, { name: "robots", content: "noindex" }];

const status = (job: JobRow) => <Badge tone={jobStatuses.tone(job.status)}>{jobStatuses.label(job.status)}</Badge>;
const attempts = (job: JobRow) => `${job.attempts} of ${job.maxAttempts}`;

/** Mails waiting to be sent (or retried) and the tasks running in the background; failed ones with their reason. */
export default function BackgroundJobs({ loaderData: { pending, failed, timeZone } }: Route.ComponentProps) {
  const pendingColumns: Column<JobRow>[] = [
    { header: "Job", cell: (j) => j.summary },
    { header: "Status", cell: status },
    { header: "Attempts", cell: attempts },
    { header: "Queued", cell: (j) => dateTime(j.createdAt, timeZone) },
    { header: "Next run", cell: (j) => dateTime(j.at, timeZone) },
    { header: "Last error", cell: (j) => j.error ?? "—" },
  ];
  const failedColumns: Column<JobRow>[] = [
    { header: "Job", cell: (j) => j.summary },
    { header: "Status", cell: status },
    { header: "Attempts", cell: attempts },
    { header: "Failed", cell: (j) => dateTime(j.at, timeZone) },
    { header: "Reason", cell: (j) => j.error ?? "—" },
    { header: "Action", pinned: true, cell: (j) => <RetryJob job={j} /> },
  ];
  return (
    <>
      <AdminHeader
        title="Background jobs"
        lead="Mails and recurring tasks run in the background, retried with growing delays when they fail. Jobs done are not listed."
      />
      <div className="space-y-8">
        <DataTable
          testId="pending-jobs"
          caption="Pending"
          columns={pendingColumns}
          rows={pending}
          rowKey={(j) => j.id}
          empty="Nothing is waiting."
        />
        <DataTable
          testId="failed-jobs"
          caption="Failed"
          columns={failedColumns}
          rows={failed}
          rowKey={(j) => j.id}
          empty="No failed jobs."
        />
      </div>
    </>
  );
}

function RetryJob({ job }: { job: JobRow }) {
  const form = useActionForm({ id: `retry:${job.id}`, action: SCREEN });
  return (
    <ActionForm handle={form} intent="retry" hidden={{ id: job.id }} className="contents">
      <button
        type="submit"
        className="btn-outline px-4 py-1.5 text-xs"
        disabled={form.busy}
        aria-label={`Retry ${job.summary}`}
      >
        Retry
      </button>
    </ActionForm>
  );
}
