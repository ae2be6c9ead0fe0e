import { useActionData } from "react-router";
import type { Route } from "./+types/sessions";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { FormAlert } from "#app/components/FormAlert.tsx";
import { formAction } from "#app/lib/form.server.ts";
import type { FormAnswer } from "#app/lib/form.ts";
import { requireUser } from "#app/lib/guards.server.ts";
import { dateTime, longDate } from "#domain/dates.ts";
import { MY_ACCOUNT_MESSAGES, sessionIdSchema } from "#domain/my-account-forms.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const sessions = await context.services.myAccount.sessions(viewer, request.headers);
  return {
    sessions: sessions.map((s) => ({
      ...s,
      signedInAt: s.signedInAt.toISOString(),
      lastActiveAt: s.lastActiveAt.toISOString(),
    })),
    timeZone: context.config.timeZone,
  };
}

/** Signs out one other session (by its id), or every other one. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  const form = await request.formData();
  const { myAccount } = context.services;
  if (form.get("intent") === "others") {
    return formAction(form, {
      run: () => myAccount.endOtherSessions(viewer, request.headers),
      success: (n) => MY_ACCOUNT_MESSAGES.othersEnded(n),
    });
  }
  return formAction(form, {
    schema: sessionIdSchema,
    run: (input) => myAccount.endSession(viewer, input, request.headers),
    success: MY_ACCOUNT_MESSAGES.sessionEnded,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Sessions" }, { name: "robots", content: "noindex" }];

type Row = Route.ComponentProps["loaderData"]["sessions"][number];

export default function Sessions({ loaderData }: Route.ComponentProps) {
  const { sessions, timeZone } = loaderData;
  const others = sessions.filter((s) => !s.current).length;
  const everyone = useActionForm({ id: "others", feedback: "inline" });
  // A row's answer, sent with the page without JavaScript: its row is gone by then.
  const answer = useActionData() as FormAnswer | undefined;
  const rowAnswer = answer?.form?.startsWith("end-") ? answer : undefined;
  return (
    <div className="space-y-6">
      {rowAnswer ? (
        <FormAlert tone={rowAnswer.ok ? "success" : "error"}>{rowAnswer.messages.join(" ")}</FormAlert>
      ) : null}
      <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <p className="text-sm text-ink/80">
          Each browser you signed in with, most recent first. If you see one you don&apos;t know, sign it out, then
          change your password.
        </p>
        <ActionForm handle={everyone} intent="others" className="mt-5">
          <button type="submit" className="btn-outline" disabled={everyone.busy || others === 0}>
            {everyone.busy ? "Signing out…" : "Sign out of all other sessions"}
          </button>
        </ActionForm>
      </div>
      <ul className="space-y-3" data-testid="sessions">
        {sessions.map((s) => (
          <SessionItem key={s.id} session={s} timeZone={timeZone} />
        ))}
      </ul>
    </div>
  );
}

function SessionItem({ session, timeZone }: { session: Row; timeZone: string }) {
  const form = useActionForm({ id: `end-${session.id}` });
  return (
    <li
      className="flex flex-wrap items-center justify-between gap-4 rounded-2xl bg-white p-5 ring-1 ring-linen"
      data-testid="session"
      data-current={session.current ? "true" : undefined}
    >
      <div className="min-w-0">
        <p className="flex flex-wrap items-center gap-2 font-semibold text-forest">
          {session.device}
          {session.current ? <span className="badge badge-green">This device</span> : null}
        </p>
        <p className="mt-1 text-sm text-ink/80">
          {session.ipAddress ? `From ${session.ipAddress}` : "Address unknown"} · Signed in{" "}
          {dateTime(session.signedInAt, timeZone)}
        </p>
        <p className="text-sm text-mist">Last active {longDate(session.lastActiveAt, timeZone)}</p>
      </div>
      {session.current ? null : (
        <ActionForm handle={form} hidden={{ sessionId: session.id }}>
          <button type="submit" className="btn-outline px-4 py-2 text-sm" disabled={form.busy}>
            {form.busy ? "Signing out…" : "Sign out"}
          </button>
        </ActionForm>
      )}
    </li>
  );
}
