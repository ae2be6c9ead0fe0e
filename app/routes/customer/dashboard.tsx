import { Form, Link, useFetcher } from "react-router";
import type { Route } from "./+types/dashboard";
import { FormAlert } from "../../components/AuthCard";
import { attempt, requireUser } from "../../lib/guards.server";
import { isAppError } from "../../../server/lib/errors";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  return {
    viewer: {
      displayName: viewer.displayName,
      email: viewer.email,
      emailVerified: viewer.emailVerified,
      isAdmin: viewer.isAdmin,
    },
  };
}

/** Sends the email-confirmation link again. */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  try {
    await context.services.accounts.resendVerification(viewer, attempt(request, context));
    return { ok: true as const, message: `We sent a new link to ${viewer.email}.` };
  } catch (error) {
    if (isAppError(error) && error.status === 429) return { ok: false as const, message: error.message };
    throw error;
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Dashboard" }, { name: "robots", content: "noindex" }];

export default function Dashboard({ loaderData: { viewer } }: Route.ComponentProps) {
  const resend = useFetcher<typeof action>();
  return (
    <section className="bg-sand/60">
      <div className="container-page py-12 sm:py-16">
        <div className="flex flex-wrap items-center justify-between gap-4">
          <div>
            <p className="eyebrow">Dashboard</p>
            <h1 className="mt-2 text-3xl text-forest sm:text-4xl">Welcome back, {viewer.displayName}</h1>
          </div>
          <Form method="post" action="/logout">
            <button type="submit" className="btn-outline">
              Sign Out
            </button>
          </Form>
        </div>

        {viewer.isAdmin ? (
          <div
            className="mt-8 flex items-center gap-4 rounded-2xl bg-forest px-6 py-5 text-white"
            data-testid="admin-banner"
          >
            <svg
              className="h-8 w-8 shrink-0 text-brass"
              viewBox="0 0 24 24"
              fill="currentColor"
              aria-label="Crown"
              role="img"
            >
              <path d="M3 7l4.5 4L12 4l4.5 7L21 7l-2 12H5L3 7zm3.7 10h10.6l.9-5.5-2.9 2.5L12 8.3 8.7 14l-2.9-2.5.9 5.5z" />
            </svg>
            <div className="flex-1">
              <p className="font-serif text-xl">Administrator Access</p>
              <p className="text-sm text-white/75">You can open every item and manage the site from the back office.</p>
            </div>
            <Link to="/admin" className="btn-primary">
              Open Admin
            </Link>
          </div>
        ) : null}

        {!viewer.emailVerified ? (
          <div className="mt-8 rounded-2xl bg-white px-6 py-5 ring-1 ring-linen">
            {resend.data ? (
              <FormAlert tone={resend.data.ok ? "success" : "error"}>{resend.data.message}</FormAlert>
            ) : null}
            <div className="flex flex-wrap items-center justify-between gap-4">
              <p className="text-sm text-ink">
                Please confirm your email address: we sent a link to <strong>{viewer.email}</strong>.
              </p>
              <resend.Form method="post">
                <button
                  type="submit"
                  className="text-sm font-semibold text-clay hover:underline"
                  disabled={resend.state !== "idle"}
                >
                  {resend.state !== "idle" ? "Sending…" : "Send the link again"}
                </button>
              </resend.Form>
            </div>
          </div>
        ) : null}

        <div className="mt-8 rounded-3xl bg-white p-8 ring-1 ring-linen">
          <h2 className="text-2xl text-forest">Membership plans</h2>
          <p className="mt-2 max-w-2xl text-sm text-mist">
            A membership unlocks the cold-email generators for every lead category for the length of its validity.
          </p>
          <Link to="/pricing" className="btn-primary mt-6">
            See the plans
          </Link>
        </div>
      </div>
    </section>
  );
}
