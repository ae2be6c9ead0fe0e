import { useEffect } from "react";
import { useFetcher } from "react-router";
import type { Route } from "./+types/view-message";
import { useToast } from "../../components/toast";
import { requireAdmin } from "../../lib/guards.server";
import { AdminHeader } from "./layout";
import { dateTime } from "../../../domain/dates";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return { message: await context.services.inbox.message(params.id), timeZone: context.config.timeZone };
}

/** 'Mark Read': UnRead to Read, once. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  await context.services.inbox.markRead(params.id, { messageStatus: "Read" }, viewer);
  return { ok: true };
}

export const meta: Route.MetaFunction = () => [{ title: "Message" }, { name: "robots", content: "noindex" }];

export default function ViewMessage({ loaderData: { message, timeZone } }: Route.ComponentProps) {
  const fetcher = useFetcher<typeof action>();
  const toast = useToast();
  useEffect(() => {
    if (fetcher.state === "idle" && fetcher.data?.ok) toast("success", "Message is Read");
  }, [fetcher.state, fetcher.data, toast]);
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
        </dl>
        <p className="mt-6 rounded-xl bg-sand p-5 text-sm leading-relaxed whitespace-pre-line">{message.message}</p>
        {message.messageStatus === "UnRead" ? (
          <fetcher.Form method="post" className="mt-6">
            <button type="submit" className="btn-dark" disabled={fetcher.state !== "idle"}>
              {fetcher.state !== "idle" ? "Updating..." : "Mark Read"}
            </button>
          </fetcher.Form>
        ) : (
          <p className="mt-6 text-sm text-mist">Read.</p>
        )}
      </article>
    </>
  );
}
