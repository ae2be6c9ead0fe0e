import { Link } from "react-router";
import type { Route } from "./+types/reset";
import { MESSAGES, resetRequestSchema } from "#domain/account-forms.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { AuthCard, EmailField } from "#app/components/AuthCard.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { attempt } from "#app/lib/guards.server.ts";

export async function action({ request, context }: Route.ActionArgs) {
  return formAction(await request.formData(), {
    schema: resetRequestSchema,
    run: (value) => context.services.accounts.requestPasswordReset(value, attempt(request, context)),
    success: MESSAGES.resetSent,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Reset password" }, { name: "robots", content: "noindex" }];

/** The same answer whether or not the address has an account (DESIGN.md deviation 7). */
export default function Reset() {
  const form = useActionForm({ id: "reset", feedback: "inline" });
  return (
    <AuthCard
      title="Reset password"
      subtitle="Enter the email of your account and we will send you a link to choose a new password."
      footer={
        <Link to="/login" className="font-semibold text-clay hover:underline">
          Back to Login
        </Link>
      }
    >
      <ActionForm handle={form} className="space-y-5">
        <EmailField />
        <button type="submit" className="btn-dark w-full" disabled={form.busy}>
          {form.busy ? "Sending…" : "Submit"}
        </button>
      </ActionForm>
    </AuthCard>
  );
}
