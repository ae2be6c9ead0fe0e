import { data, Link } from "react-router";
import type { Route } from "./+types/newsletter-confirm";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Notice } from "#app/components/layout/Notice.tsx";
import { formAction } from "#app/lib/form.server.ts";

/** Per link and changing with it: never kept by the page cache, a proxy or the browser. */
export const headers = () => ({ "Cache-Control": "no-store" });

/** What the link is. A GET changes nothing (mail scanners open links): the visitor confirms with the button. */
export async function loader({ params, context }: Route.LoaderArgs) {
  const link = await context.services.newsletter.confirmLink(params.token);
  return data(link, { status: link.state === "invalid" ? 404 : 200 });
}

/** "confirm": uses the link; "resend": a new link to the address of an expired or used one (the signup's rules). */
export async function action({ request, params, context }: Route.ActionArgs) {
  const form = await request.formData();
  const newsletter = context.services.newsletter;
  if (form.get("intent") === "resend") {
    return formAction(form, {
      run: async () => {
        const { email } = await newsletter.confirmLink(params.token);
        if (email) await newsletter.subscribe({ subemail: email }, { ip: context.clientIp, isBot: false });
      },
      success: "Check your inbox: a new link is on its way.",
    });
  }
  return formAction(form, {
    run: () => newsletter.confirm(params.token),
    success: (outcome) => (outcome.state === "confirmed" ? "Your subscription is confirmed." : []),
  });
}

export const meta: Route.MetaFunction = () => [
  { title: "Confirm your subscription" },
  { name: "robots", content: "noindex" },
];

const SUBSCRIBE_AGAIN = (
  <p>
    To subscribe again, use the form at the foot of this page, or{" "}
    <Link to="/" className="font-semibold text-clay underline underline-offset-4 hover:text-clay-dark">
      go to the home page
    </Link>
    .
  </p>
);

export default function ConfirmSubscription({ loaderData: link }: Route.ComponentProps) {
  const confirm = useActionForm({ id: "newsletter-confirm" });
  const resend = useActionForm({ id: "newsletter-resend" });
  const email = <strong className="font-semibold text-ink">{link.email}</strong>;
  switch (link.state) {
    case "ready":
      return (
        <Notice tone="ask" title="Confirm your subscription" testId="newsletter-confirm">
          <p>Press the button to receive our newsletter at {email}: design notes and search tips, once a month.</p>
          <ActionForm handle={confirm} intent="confirm" className="pt-5">
            <button type="submit" className="btn-primary" disabled={confirm.busy}>
              {confirm.busy ? "Confirming…" : "Confirm my subscription"}
            </button>
          </ActionForm>
        </Notice>
      );
    case "confirmed":
      return (
        <Notice tone="done" title="You are subscribed" testId="newsletter-confirm">
          <p>Thank you: {email} will receive our newsletter. Every issue has a link to unsubscribe.</p>
          <Link to="/" className="btn-primary mt-5">
            Back Home
          </Link>
        </Notice>
      );
    case "expired":
    case "used":
      return (
        <Notice
          tone="problem"
          title={link.state === "expired" ? "This link has expired" : "This link was already used"}
          testId="newsletter-confirm"
        >
          <p>
            {link.state === "expired"
              ? "A confirmation link works for 7 days."
              : "This address left the newsletter after confirming it."}{" "}
            To subscribe {email} again, ask for a new link.
          </p>
          {resend.answer?.ok ? (
            <p role="status" className="font-semibold text-forest">
              Check your inbox: a new link is on its way.
            </p>
          ) : (
            <ActionForm handle={resend} intent="resend" className="pt-5">
              <button type="submit" className="btn-primary" disabled={resend.busy}>
                {resend.busy ? "Sending…" : "Send me a new link"}
              </button>
            </ActionForm>
          )}
        </Notice>
      );
    default:
      return (
        <Notice tone="problem" title="This link does not work" testId="newsletter-confirm">
          <p>It may be incomplete, or a newer confirmation mail replaced it.</p>
          {SUBSCRIBE_AGAIN}
        </Notice>
      );
  }
}
