import { Form, Link, useNavigation } from "react-router";
import type { Route } from "./+types/reset";
import { MESSAGES, resetRequestSchema } from "../../content/account-forms";
import { AuthCard, EmailField, FormAlert } from "../../components/AuthCard";
import { useClientValidation } from "../../components/forms";
import { attempt } from "../../lib/guards.server";
import { accountAction } from "./failure.server";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  return accountAction(form, async () => {
    await context.services.accounts.requestPasswordReset(Object.fromEntries(form), attempt(request, context));
    return { sent: true as const };
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Reset password" }, { name: "robots", content: "noindex" }];

/** The same answer whether or not the address has an account (DESIGN.md deviation 7). */
export default function Reset({ actionData }: Route.ComponentProps) {
  const busy = useNavigation().state === "submitting";
  const failure = actionData && "sent" in actionData ? undefined : actionData;
  const { error, onSubmit } = useClientValidation(resetRequestSchema, failure);
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
      {actionData && "sent" in actionData ? <FormAlert tone="success">{MESSAGES.resetSent}</FormAlert> : null}
      {failure?.message ? <FormAlert>{failure.message}</FormAlert> : null}
      <Form method="post" noValidate onSubmit={onSubmit} className="space-y-5">
        <EmailField defaultValue={failure?.values?.email} error={error("email")} />
        <button type="submit" className="btn-dark w-full" disabled={busy}>
          {busy ? "Sending…" : "Submit"}
        </button>
      </Form>
    </AuthCard>
  );
}
