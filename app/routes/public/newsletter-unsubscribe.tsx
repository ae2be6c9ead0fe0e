import { data, Link } from "react-router";
import { notFound } from "#server/lib/errors.ts";
import type { Route } from "./+types/newsletter-unsubscribe";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Notice } from "#app/components/layout/Notice.tsx";
import { formAction } from "#app/lib/form.server.ts";

/** Per link and changing with it: never kept by the page cache, a proxy or the browser. */
export const headers = () => ({ "Cache-Control": "no-store" });

/**
 * A subscriber's stable unsubscribe address, in every newsletter mail. GET shows one button (a mail scanner opening
 * the link unsubscribes nobody); POST unsubscribes: the button, or a mail provider's RFC 8058 one-click POST
 * ("List-Unsubscribe=One-Click", no cookie, no form id), which gets this page back.
 */
export async function loader({ params, context }: Route.LoaderArgs) {
  const link = await context.services.newsletter.unsubscribeLink(params.token);
  return data(link, { status: link ? 200 : 404 });
}

export async function action({ request, params, context }: Route.ActionArgs) {
  return formAction(await request.formData(), {
    run: async () => {
      const done = await context.services.newsletter.unsubscribe(params.token);
      if (!done) throw notFound("This unsubscribe link does not work.");
      return done;
    },
    success: "You are unsubscribed.",
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Unsubscribe" }, { name: "robots", content: "noindex" }];

export default function Unsubscribe({ loaderData: link }: Route.ComponentProps) {
  const form = useActionForm({ id: "newsletter-unsubscribe" });
  if (!link) {
    return (
      <Notice tone="problem" title="This link does not work" testId="newsletter-unsubscribe">
        <p>It may be incomplete: open it again from the newsletter mail, or copy the whole address.</p>
      </Notice>
    );
  }
  const email = <strong className="font-semibold text-ink">{link.email}</strong>;
  if (link.state === "unsubscribed") {
    return (
      <Notice tone="done" title="You are unsubscribed" testId="newsletter-unsubscribe">
        <p>{email} will receive no more newsletters from us.</p>
        <p>Changed your mind? Subscribe again with the form at the foot of this page.</p>
        <Link to="/" className="btn-primary mt-5">
          Back Home
        </Link>
      </Notice>
    );
  }
  return (
    <Notice tone="ask" title="Unsubscribe from the newsletter?" testId="newsletter-unsubscribe">
      <p>{email} will receive no more newsletters from us.</p>
      <ActionForm handle={form} className="pt-5">
        <button type="submit" className="btn-primary" disabled={form.busy}>
          {form.busy ? "Unsubscribing…" : "Unsubscribe"}
        </button>
      </ActionForm>
    </Notice>
  );
}
