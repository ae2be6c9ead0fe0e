import { Link, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/register";
import { registrationSchema } from "#domain/account-forms.ts";
import { HONEYPOT_FIELD } from "#domain/public-forms.ts";
import { ActionForm, useActionForm, useFieldState } from "#app/components/ActionForm.tsx";
import { AuthCard, AuthSwitch, EmailField, PasswordField } from "#app/components/AuthCard.tsx";
import { Honeypot } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { attempt, requireAnonymous } from "#app/lib/guards.server.ts";
import { safeRedirect } from "#app/lib/redirect.ts";

export async function loader({ context }: Route.LoaderArgs) {
  await requireAnonymous(context);
  return null;
}

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  const bot = String(form.get(HONEYPOT_FIELD) ?? "").trim() !== "";
  // A bot that filled the hidden field gets the page it expects and no account.
  if (bot) throw redirect("/");
  return formAction(form, {
    schema: registrationSchema,
    hide: ["password"],
    run: async (registration) => {
      const headers = await context.services.accounts.signUp(registration, attempt(request, context));
      // Spec 1: after registration the user goes to /. The one exception (issue 28): a visitor who chose a plan goes
      // back to that plan's order page, which asks them to confirm their email; any other redirectTo is not followed.
      const to = safeRedirect(form.get("redirectTo"), "/");
      throw redirect(/^\/order-now\/[^/?#]+$/.test(to) ? to : "/", { headers });
    },
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Register" }, { name: "robots", content: "noindex" }];

/** "I accept the terms and the privacy notice", required; the server records which versions were accepted, and when. */
function ConsentField() {
  const state = useFieldState("acceptTerms");
  const id = state?.id ?? "f-acceptTerms";
  const errorId = state?.errorId ?? `${id}-error`;
  return (
    <div>
      <div className="flex items-start gap-3 text-sm text-ink">
        <input
          key={state?.key}
          id={id}
          type="checkbox"
          name="acceptTerms"
          required
          className="mt-0.5 h-5 w-5 shrink-0 accent-clay"
          aria-invalid={state?.error ? true : undefined}
          aria-describedby={state?.error ? errorId : undefined}
        />
        <label htmlFor={id}>
          I accept the{" "}
          <Link to="/terms" className="font-semibold text-clay underline">
            terms
          </Link>{" "}
          and the{" "}
          <Link to="/privacy" className="font-semibold text-clay underline">
            privacy notice
          </Link>
        </label>
      </div>
      {state?.error ? (
        <p id={errorId} className="field-error">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}

export default function Register() {
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo") ?? "";
  const form = useActionForm({ id: "register", feedback: "inline" });
  return (
    <AuthCard
      title="Welcome! Register to continue"
      subtitle="Create your account to choose a membership and use the cold-email generators."
      footer={<AuthSwitch prompt="Have an account?" to="/login" label="Login Now" redirectTo={redirectTo} />}
    >
      {form.busy ? (
        <div role="status" aria-live="polite" className="flex flex-col items-center gap-4 py-10 text-sm text-mist">
          <span
            className="h-10 w-10 animate-spin rounded-full border-4 border-linen border-t-clay"
            aria-hidden="true"
          />
          Creating your account…
        </div>
      ) : null}
      <ActionForm
        handle={form}
        hidden={redirectTo ? { redirectTo } : undefined}
        className={`relative space-y-5 ${form.busy ? "hidden" : ""}`}
      >
        <Honeypot />
        <EmailField />
        <PasswordField autoComplete="new-password" />
        <ConsentField />
        <button type="submit" className="btn-primary w-full" disabled={form.busy}>
          Register
        </button>
      </ActionForm>
    </AuthCard>
  );
}
