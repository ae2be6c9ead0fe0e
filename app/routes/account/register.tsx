import { Form, Link, redirect } from "react-router";
import type { Route } from "./+types/register";
import { HONEYPOT_FIELD } from "../../content/forms";
import { AuthCard, EmailField, FormAlert, PasswordField, useCredentialsForm } from "../../components/AuthCard";
import { Honeypot } from "../../components/forms";
import { attempt, requireAnonymous } from "../../lib/guards.server";
import { accountAction } from "./failure.server";

export async function loader({ context }: Route.LoaderArgs) {
  await requireAnonymous(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const bot = String(form.get(HONEYPOT_FIELD) ?? "").trim() !== "";
  // A bot that filled the hidden field gets the page it expects and no account.
  if (bot) throw redirect("/");
  return accountAction(form, async () => {
    const headers = await context.services.accounts.signUp(Object.fromEntries(form), attempt(request, context));
    // Spec 1 and the accounts issue: after registration the new member goes to the landing page.
    throw redirect("/", { headers });
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Register" }, { name: "robots", content: "noindex" }];

export default function Register({ actionData }: Route.ComponentProps) {
  const { redirectTo, busy, error, onSubmit } = useCredentialsForm(actionData);
  return (
    <AuthCard
      title="Welcome! Register to continue"
      subtitle="Create your account to choose a membership and use the cold-email generators."
      footer={
        <>
          Have an account?{" "}
          <Link
            to={redirectTo ? `/login?redirectTo=${encodeURIComponent(redirectTo)}` : "/login"}
            className="font-semibold text-clay hover:underline"
          >
            Login Now
          </Link>
        </>
      }
    >
      {actionData?.message ? <FormAlert>{actionData.message}</FormAlert> : null}
      {busy ? (
        <div role="status" aria-live="polite" className="flex flex-col items-center gap-4 py-10 text-sm text-mist">
          <span
            className="h-10 w-10 animate-spin rounded-full border-4 border-linen border-t-clay"
            aria-hidden="true"
          />
          Creating your account…
        </div>
      ) : null}
      <Form method="post" noValidate onSubmit={onSubmit} className={`relative space-y-5 ${busy ? "hidden" : ""}`}>
        <Honeypot />
        <EmailField defaultValue={actionData?.values?.email} error={error("email")} />
        <PasswordField autoComplete="new-password" error={error("password")} />
        <button type="submit" className="btn-primary w-full" disabled={busy}>
          Register
        </button>
      </Form>
    </AuthCard>
  );
}
