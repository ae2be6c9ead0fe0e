import type { Route } from "./+types/view-message";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { ArchiveButton } from "#app/components/admin/ArchiveButton.tsx";
import { dateTime } from "#domain/dates.ts";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "messages");
  return { message: await context.services.inbox.message(params.id), timeZone: context.config.timeZone };
}

/** 'Mark Read': UnRead to Read, once. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "messages");
  return formAction(await request.formData(), {
    run: () => context.services.inbox.markRead(params.id, { messageStatus: "Read" }, viewer),
    success: "Message is Read",
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Message" }, { name: "robots", content: "noindex" }];

export default function ViewMessage({ loaderData: { message, timeZone } }: Route.ComponentProps) {
  const form = useActionForm({ id: "mark-read" });
  return (
    <>
      <AdminHeader title={message.subject} back={{ to: "/all-messages", label: "Messages" }} />
      <article className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <dl className="grid gap-x-6 gap-y-2 text-sm sm:grid-cols-[8rem_1fr]">
          <dt className="text-mist">From</dt>
          <dd>{message.name}</dd>
          <dt className="text-mist">Email</dt>
          <dd>
            <a href={`mailto:${message.email}`} className="text-clay hover:underline">
              {message.email}
            </a>
          </dd>
          <dt className="text-mist">Phone</dt>
          <dd>{message.number || "—"}</dd>
          <dt className="text-mist">Subject</dt>
          <dd>{message.subject}</dd>
          <dt className="text-mist">Received</dt>
          <dd>{dateTime(message.createdAt, timeZone)}</dd>
          {message.archivedAt ? (
            <>
              <dt className="text-mist">Archived</dt>
              <dd>{dateTime(message.archivedAt, timeZone)}</dd>
            </>
          ) : null}
        </dl>
        <p className="mt-6 rounded-xl bg-sand p-5 text-sm leading-relaxed whitespace-pre-line">{message.message}</p>
        {message.messageStatus === "UnRead" ? (
          <ActionForm handle={form} className="mt-6">
            <button type="submit" className="btn-dark" disabled={form.busy}>
              {form.busy ? "Updating..." : "Mark Read"}
            </button>
          </ActionForm>
        ) : (
          // Without JavaScript, the answer comes with the page that no longer shows the button.
          <p className="mt-6 text-sm text-mist" role={form.shown ? "status" : undefined}>
            {form.shown?.ok ? form.shown.messages[0] : "Read."}
          </p>
        )}
        <ArchiveButton message={message} className="mt-4" />
      </article>
    </>
  );
}
