import { Link, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/login-two-factor";
import { secondFactorSchema } from "#domain/two-factor.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { AuthCard } from "#app/components/AuthCard.tsx";
import { TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { attempt, requireAnonymous } from "#app/lib/guards.server.ts";
import { safeRedirect } from "#app/lib/redirect.ts";

/** Sign-in's second step (decision 040): after the password, a code from the app or a recovery code. */
export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAnonymous(context);
  // Without a sign-in waiting for its code (opened directly, or after the 10 minutes), the password comes first.
  if (!context.services.twoFactor.hasSignInChallenge(request.headers)) {
    const asked = new URL(request.url).searchParams.get("redirectTo");
    throw redirect(asked ? `/login?redirectTo=${encodeURIComponent(safeRedirect(asked))}` : "/login");
  }
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  return formAction(form, {
    schema: secondFactorSchema,
    run: async (value) => {
      const { headers, email } = await context.services.twoFactor.verifySignIn(value, attempt(request, context));
      const landing = await context.services.accounts.landingFor(email);
      throw redirect(safeRedirect(form.get("redirectTo"), landing), { headers });
    },
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Two-factor sign-in" }, { name: "robots", content: "noindex" }];

export default function LoginTwoFactor() {
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo") ?? "";
  const recovery = params.get("method") === "recovery";
  const form = useActionForm({ id: "two-factor", feedback: "inline" });
  const other = new URLSearchParams(params);
  if (recovery) other.delete("method");
  else other.set("method", "recovery");
  const otherHref = `/login/two-factor${other.size ? `?${other}` : ""}`;
  return (
    <AuthCard
      title="Two-factor sign-in"
      subtitle={
        recovery
          ? "Enter one of the recovery codes you saved when you turned on two-factor sign-in. Each code works once."
          : "Open your authenticator app and enter the 6-digit code it shows for Atelier North."
      }
      footer={
        <Link to="/login" className="font-semibold text-clay hover:underline">
          Log in with another account
        </Link>
      }
    >
      <ActionForm
        key={recovery ? "recovery" : "totp"}
        handle={form}
        hidden={{ redirectTo, method: recovery ? "recovery" : "totp" }}
        className="space-y-5"
      >
        {recovery ? (
          <TextField
            label="Recovery code"
            name="code"
            autoComplete="off"
            autoCapitalize="off"
            spellCheck={false}
            placeholder="xxxxx-xxxxx"
            required
          />
        ) : (
          <TextField
            label="Code"
            name="code"
            inputMode="numeric"
            autoComplete="one-time-code"
            pattern="[0-9 ]{6,7}"
            maxLength={7}
            placeholder="123456"
            required
          />
        )}
        <button type="submit" className="btn-dark w-full" disabled={form.busy}>
          {form.busy ? "Checking…" : "Continue"}
        </button>
        <p className="text-center text-sm">
          <Link to={otherHref} className="font-medium text-clay hover:underline">
            {recovery ? "Use the code from your app instead" : "Use a recovery code instead"}
          </Link>
        </p>
      </ActionForm>
    </AuthCard>
  );
}
