import { Form, Link, redirect, useNavigation, useSearchParams } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/reset-password";
import { newPasswordSchema } from "../../content/account-forms";
import { AuthCard, FormAlert, PasswordField } from "../../components/AuthCard";
import { useClientValidation } from "../../components/forms";
import { accountAction } from "./failure.server";

export async function action({ request, context }: Route.ActionArgs) {
  const form = await request.formData();
  return accountAction(form, async () => {
    await context.services.accounts.resetPassword(Object.fromEntries(form));
    throw redirect("/login?reset=done");
  });
}

export const meta: Route.MetaFunction = () => [
  { title: "Choose a new password" },
  { name: "robots", content: "noindex" },
];

const clientSchema = newPasswordSchema.extend({ token: z.string() });

/** Opened from the emailed link (better-auth checks the token, then sends the browser here with ?token=…). */
export default function ResetPassword({ actionData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const invalid = params.get("error") === "INVALID_TOKEN" || !token;
  const busy = useNavigation().state === "submitting";
  const { error, onSubmit } = useClientValidation(clientSchema, actionData);
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
          {actionData?.message ? <FormAlert>{actionData.message}</FormAlert> : null}
          {error("token") ? <FormAlert>{error("token")}</FormAlert> : null}
          <Form method="post" noValidate onSubmit={onSubmit} className="space-y-5">
            <input type="hidden" name="token" value={token} />
            <PasswordField label="New password" autoComplete="new-password" error={error("password")} />
            <button type="submit" className="btn-dark w-full" disabled={busy}>
              {busy ? "Saving…" : "Set New Password"}
            </button>
          </Form>
        </>
      )}
    </AuthCard>
  );
}
