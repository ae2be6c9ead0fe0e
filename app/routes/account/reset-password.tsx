import { Link, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/reset-password";
import { newPasswordSchema } from "#domain/account-forms.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { AuthCard, PasswordField } from "#app/components/AuthCard.tsx";
import { FormAlert } from "#app/components/FormAlert.tsx";
import { formAction } from "#app/lib/form.server.ts";

export async function action({ request, context }: Route.ActionArgs) {
  return formAction(await request.formData(), {
    schema: newPasswordSchema,
    hide: ["password"],
    run: async (value) => {
      await context.services.accounts.resetPassword(value);
      throw redirect("/login?reset=done");
    },
  });
}

export const meta: Route.MetaFunction = () => [
  { title: "Choose a new password" },
  { name: "robots", content: "noindex" },
];

/** Opened from the emailed link (better-auth checks the token, then sends the browser here with ?token=…). */
export default function ResetPassword() {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const invalid = params.get("error") === "INVALID_TOKEN" || !token;
  const form = useActionForm({ id: "reset-password", feedback: "inline" });
  const tokenError = form.fields.token?.errors?.[0];
  const expired = "This reset link has expired or was already used. Ask for a new one.";
  return (
    <AuthCard
      title="Choose a new password"
      footer={
        <Link to="/reset" className="font-semibold text-clay hover:underline">
          Ask for a new link
        </Link>
      }
    >
      {invalid ? (
        <FormAlert>{expired}</FormAlert>
      ) : (
        <>
          {tokenError ? <FormAlert>{tokenError}</FormAlert> : null}
          <ActionForm handle={form} hidden={{ token }} className="space-y-5">
            <PasswordField label="New password" autoComplete="new-password" />
            <button type="submit" className="btn-dark w-full" disabled={form.busy}>
              {form.busy ? "Saving…" : "Set New Password"}
            </button>
          </ActionForm>
        </>
      )}
    </AuthCard>
  );
}
