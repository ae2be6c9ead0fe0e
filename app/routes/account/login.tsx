import { Form, Link, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { AuthCard, EmailField, FormAlert, PasswordField, useCredentialsForm } from "../../components/AuthCard";
import { attempt, requireAnonymous } from "../../lib/guards.server";
import { safeRedirect } from "../../lib/redirect";
import { accountAction } from "./failure.server";

export async function loader({ context }: Route.LoaderArgs) {
  await requireAnonymous(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  return accountAction(form, async () => {
    const headers = await context.services.accounts.signIn(Object.fromEntries(form), attempt(request, context));
    throw redirect(safeRedirect(form.get("redirectTo")), { headers });
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Login" }, { name: "robots", content: "noindex" }];

export default function Login({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const { redirectTo, busy, error, onSubmit } = useCredentialsForm(actionData);
  return (
    <AuthCard
      title="Login"
      subtitle="Welcome back. Sign in to see your membership, orders and items."
      footer={
        <>
          Don't have an account?{" "}
          <Link
            to={redirectTo ? `/register?redirectTo=${encodeURIComponent(redirectTo)}` : "/register"}
            className="font-semibold text-clay hover:underline"
          >
            Sign Up
          </Link>
        </>
      }
    >
      {params.get("reset") === "done" ? (
        <FormAlert tone="success">Your password has been changed. Log in with the new one.</FormAlert>
      ) : null}
      {actionData?.message ? <FormAlert>{actionData.message}</FormAlert> : null}
      <Form method="post" noValidate onSubmit={onSubmit} className="space-y-5">
        <input type="hidden" name="redirectTo" value={redirectTo} />
        <EmailField defaultValue={actionData?.values?.email} error={error("email")} />
        <PasswordField autoComplete="current-password" error={error("password")} />
        <div className="flex justify-end">
          <Link to="/reset" className="text-sm font-medium text-clay hover:underline">
            Forgot password?
          </Link>
        </div>
        <button type="submit" className="btn-dark w-full" disabled={busy}>
          {busy ? "Logging in…" : "Login"}
        </button>
      </Form>
    </AuthCard>
  );
}
