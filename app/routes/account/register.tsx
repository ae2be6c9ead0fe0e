import { redirect } from "react-router";
import type { Route } from "./+types/register";
import { credentialsSchema } from "../../../domain/account-forms";
import { HONEYPOT_FIELD } from "../../../domain/public-forms";
import { ActionForm } from "../../components/ActionForm";
import { AuthCard, AuthSwitch, EmailField, PasswordField, useCredentialsForm } from "../../components/AuthCard";
import { Honeypot } from "../../components/forms";
import { formAction } from "../../lib/form.server";
import { attempt, requireAnonymous } from "../../lib/guards.server";

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
    schema: credentialsSchema,
    hide: ["password"],
    run: async (credentials) => {
      const headers = await context.services.accounts.signUp(credentials, attempt(request, context));
      // Spec 1 and the accounts issue: after registration the new member goes to the landing page.
      throw redirect("/", { headers });
    },
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Register" }, { name: "robots", content: "noindex" }];

export default function Register() {
  const { redirectTo, form } = useCredentialsForm("register");
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
      <ActionForm handle={form} className={`relative space-y-5 ${form.busy ? "hidden" : ""}`}>
        <Honeypot />
        <EmailField />
        <PasswordField autoComplete="new-password" />
        <button type="submit" className="btn-primary w-full" disabled={form.busy}>
          Register
        </button>
      </ActionForm>
    </AuthCard>
  );
}
