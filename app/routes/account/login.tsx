import { Link, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/login";
import { credentialsSchema } from "#domain/account-forms.ts";
import { ActionForm } from "#app/components/ActionForm.tsx";
import { AuthCard, AuthSwitch, EmailField, PasswordField, useCredentialsForm } from "#app/components/AuthCard.tsx";
import { FormAlert } from "#app/components/FormAlert.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { attempt, requireAnonymous } from "#app/lib/guards.server.ts";
import { safeRedirect } from "#app/lib/redirect.ts";
import { STAFF_SIGN_IN } from "#domain/staff-words.ts";

export async function loader({ context }: Route.LoaderArgs) {
  await requireAnonymous(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  return formAction(form, {
    schema: credentialsSchema,
    hide: ["password"],
    run: async (credentials) => {
      const signedIn = await context.services.accounts.beginSignIn(credentials, attempt(request, context));
      const asked = form.get("redirectTo");
      if (signedIn.secondFactor) {
        // The code's page (decision 040), still knowing where the person was going.
        const to = typeof asked === "string" && asked ? `?redirectTo=${encodeURIComponent(safeRedirect(asked))}` : "";
        throw redirect(`/login/two-factor${to}`, { headers: signedIn.headers });
      }
      // Without a page asked for: staff land on their back office, customers on their dashboard.
      throw redirect(safeRedirect(asked, signedIn.landing), { headers: signedIn.headers });
    },
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Login" }, { name: "robots", content: "noindex" }];

export default function Login() {
  const [params] = useSearchParams();
  const { redirectTo, form } = useCredentialsForm("login");
  // A staff invitation links here with ?for=staff: staff words, and no customer's "Sign Up" (issue 33, item 14).
  const staff = params.get("for") === "staff";
  return (
    <AuthCard
      title={staff ? STAFF_SIGN_IN.title : "Login"}
      subtitle={staff ? STAFF_SIGN_IN.subtitle : "Welcome back. Sign in to see your membership, orders and items."}
      footer={
        staff ? undefined : (
          <AuthSwitch prompt="Don't have an account?" to="/register" label="Sign Up" redirectTo={redirectTo} />
        )
      }
    >
      {params.get("reset") === "done" ? (
        <FormAlert tone="success">Your password has been changed. Log in with the new one.</FormAlert>
      ) : null}
      <ActionForm handle={form} hidden={{ redirectTo }} className="space-y-5">
        <EmailField />
        <PasswordField autoComplete="current-password" />
        <div className="flex justify-end">
          <Link to="/reset" className="text-sm font-medium text-clay hover:underline">
            Forgot password?
          </Link>
        </div>
        <button type="submit" className="btn-dark w-full" disabled={form.busy}>
          {form.busy ? "Logging in…" : "Login"}
        </button>
      </ActionForm>
    </AuthCard>
  );
}
