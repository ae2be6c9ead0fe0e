import { Link, redirect } from "react-router";
import type { Route } from "./+types/newsletter";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Badge } from "#app/components/DataTable.tsx";
import { TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { usePollWhile } from "#app/components/admin/use-poll-while.ts";
import { STATE_TONES } from "./newsletters";
import { dateTime } from "#domain/dates.ts";
import { AUDIENCE_LABELS, NEWSLETTER_STATE_LABELS } from "#domain/newsletters.ts";
import { fromZonedTime, toZonedInput } from "#domain/zoned-time.ts";
import { badRequest } from "#server/lib/errors.ts";

/** How often the screen asks again while a newsletter is sending. */
const POLL_MS = 3000;

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "subscribers");
  const newsletter = await context.services.newsletters.get(params.id);
  return {
    newsletter,
    timeZone: context.config.timeZone,
    soon: toZonedInput(new Date(Date.now() + 60 * 60_000), context.config.timeZone),
  };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "subscribers");
  const form = await request.formData();
  const newsletters = context.services.newsletters;
  const id = params.id;
  switch (form.get("intent")) {
    case "test":
      return formAction(form, {
        run: () => newsletters.sendTest(id, viewer),
        success: `A test is on its way to ${viewer.email}`,
      });
    case "send":
      return formAction(form, { run: () => newsletters.send(id, {}, viewer), success: "The newsletter is being sent" });
    case "schedule":
      return formAction(form, {
        run: async () => {
          const typed = String(form.get("at") ?? "");
          const at = fromZonedTime(typed, context.config.timeZone);
          if (!at) throw badRequest([{ field: "at", message: "Choose a date and a time to send it at" }]);
          return newsletters.send(id, { at: at.toISOString() }, viewer);
        },
        success: "The newsletter is scheduled",
      });
    case "unschedule":
      return formAction(form, {
        run: () => newsletters.unschedule(id, viewer),
        success: "The newsletter is a draft again",
      });
    case "retry":
      return formAction(form, {
        run: () => newsletters.retryFailed(id, viewer),
        success: (r) => `Sending again to ${r.retried} ${r.retried === 1 ? "address" : "addresses"}`,
      });
    case "delete": {
      const answer = await formAction(form, { run: () => newsletters.remove(id, viewer) });
      if ((answer.data as { ok?: boolean }).ok) throw redirect("/newsletters");
      return answer;
    }
    default:
      throw new Response("Unknown action", { status: 400 });
  }
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Newsletter: ${data.newsletter.subject}` : "Newsletter" },
  { name: "robots", content: "noindex" },
];

/** /newsletters/:id: the newsletter, its counts (asked again every few seconds while it sends) and what can be done. */
export default function NewsletterScreen({ loaderData: { newsletter: n, timeZone, soon } }: Route.ComponentProps) {
  usePollWhile(n.state === "sending", POLL_MS);
  return (
    <>
      <AdminHeader title={n.subject} back={{ to: "/newsletters", label: "Newsletters" }} />
      <NewsletterSummary n={n} timeZone={timeZone} />
      <NewsletterActions n={n} timeZone={timeZone} soon={soon} />
      <p className="mt-6 text-sm">
        <Link to="/suppressions" className="underline">
          Suppression list
        </Link>
      </p>
    </>
  );
}

type Newsletter = Route.ComponentProps["loaderData"]["newsletter"];

/** Its state, its article or body, its audience and (once it is sent) its counts. */
function NewsletterSummary({ n, timeZone }: { n: Newsletter; timeZone: string }) {
  const counts: [string, number][] = [
    ["Queued", n.counts.queued + n.counts.sending],
    ["Sent", n.counts.sent],
    ["Failed", n.counts.failed],
    ["Not sent (suppressed)", n.counts.suppressed],
    ["Unsubscribed since", n.counts.unsubscribed],
  ];
  return (
    <section className="space-y-3 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
      <p>
        <Badge tone={STATE_TONES[n.state]}>{NEWSLETTER_STATE_LABELS[n.state]}</Badge>
        {n.state === "scheduled" && n.sendAt ? ` for ${dateTime(n.sendAt, timeZone)}` : null}
        {n.finishedAt ? ` ${dateTime(n.finishedAt, timeZone)}` : null}
      </p>
      <p className="text-sm">
        {n.articleTitle ? `The article “${n.articleTitle}”` : "A message of its own"}, to{" "}
        {n.audience.map((a) => AUDIENCE_LABELS[a].toLowerCase()).join(", ")}.
        {n.previewText ? ` Preview: “${n.previewText}”.` : null}
      </p>
      {n.state !== "draft" && n.state !== "scheduled" ? (
        <dl className="grid grid-cols-2 gap-4 sm:grid-cols-5" data-testid="newsletter-counts" aria-live="polite">
          {counts.map(([label, value]) => (
            <div key={label} className="rounded-xl bg-sand p-3">
              <dt className="text-xs text-mist">{label}</dt>
              <dd className="text-xl font-semibold">{value}</dd>
            </div>
          ))}
        </dl>
      ) : null}
      {!n.articleTitle && n.bodyHtml ? (
        <div className="prose max-w-none border-t border-linen pt-4" dangerouslySetInnerHTML={{ __html: n.bodyHtml }} />
      ) : null}
    </section>
  );
}

/** A test to oneself, and what the newsletter's state allows: send, schedule, delete, back to draft, retry. */
function NewsletterActions({ n, timeZone, soon }: { n: Newsletter; timeZone: string; soon: string }) {
  const test = useActionForm({ id: "newsletter-test" });
  const send = useActionForm({ id: "newsletter-send" });
  const schedule = useActionForm({ id: "newsletter-schedule" });
  const unschedule = useActionForm({ id: "newsletter-unschedule" });
  const retry = useActionForm({ id: "newsletter-retry" });
  const remove = useActionForm({ id: "newsletter-delete" });
  return (
    <div className="mt-6 flex flex-wrap items-start gap-4">
      <ActionForm handle={test} intent="test">
        <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={test.busy}>
          {test.busy ? "Sending…" : "Send a test to me"}
        </button>
      </ActionForm>
      {n.state === "draft" ? (
        <>
          <ActionForm handle={send} intent="send">
            <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={send.busy}>
              {send.busy ? "Starting…" : "Send now"}
            </button>
          </ActionForm>
          <ActionForm handle={schedule} intent="schedule" className="flex items-end gap-2">
            <TextField label={`Send at (${timeZone})`} name="at" type="datetime-local" defaultValue={soon} />
            <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={schedule.busy}>
              Send at this time
            </button>
          </ActionForm>
          <ActionForm handle={remove} intent="delete">
            <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={remove.busy}>
              Delete the draft
            </button>
          </ActionForm>
        </>
      ) : null}
      {n.state === "scheduled" ? (
        <ActionForm handle={unschedule} intent="unschedule">
          <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={unschedule.busy}>
            Back to draft
          </button>
        </ActionForm>
      ) : null}
      {n.state === "partly-sent" ? (
        <ActionForm handle={retry} intent="retry">
          <button type="submit" className="btn-primary px-4 py-2 text-sm" disabled={retry.busy}>
            Retry the failed ones
          </button>
        </ActionForm>
      ) : null}
    </div>
  );
}
