import { redirect, useLocation, useSearchParams } from "react-router";
import type { Route } from "./+types/password";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { FormAlert } from "#app/components/FormAlert.tsx";
import { TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireUser } from "#app/lib/guards.server.ts";
import { MY_ACCOUNT_MESSAGES, passwordChangeSchema } from "#domain/my-account-forms.ts";
import { PASSWORD_MIN, STAFF_PASSWORD_MIN } from "#domain/account-forms.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  return { minLength: viewer.staffRole ? STAFF_PASSWORD_MIN : PASSWORD_MIN };
}

/**
 * Changes the password and signs out every other session; this browser gets a new session (its cookie comes with the
 * redirect), so the answer is a page of its own (?changed=1) rather than the form's.
 */
export async function action({ request, context }: Route.ActionArgs) {
  await requireUser(request, context);
  return formAction(await request.formData(), {
    schema: passwordChangeSchema,
    hide: ["currentPassword", "newPassword"],
    run: async (input) => {
      const headers = await context.services.myAccount.changePassword(input, request.headers);
      throw redirect("/account/password?changed=1", { headers });
    },
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Password" }, { name: "robots", content: "noindex" }];

export default function Password({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const location = useLocation();
  // A new form after each navigation (the change's redirect): the answers of the attempts before it go with the old.
  return <PasswordForm key={location.key} changed={params.get("changed") === "1"} minLength={loaderData.minLength} />;
}

function PasswordForm({ changed, minLength }: { changed: boolean; minLength: number }) {
  const form = useActionForm({ id: "password", feedback: "inline" });
  return (
    <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
      {changed && !form.answer ? <FormAlert tone="success">{MY_ACCOUNT_MESSAGES.passwordChanged}</FormAlert> : null}
      <p className="text-sm text-ink/80">
        Changing your password signs you out everywhere else: on other computers and phones, you sign in again with the
        new one. A new password needs at least {minLength} characters; a few unrelated words make a strong one.
      </p>
      <ActionForm handle={form} className="mt-5 max-w-md space-y-5">
        <TextField
          label="Current password"
          name="currentPassword"
          type="password"
          autoComplete="current-password"
          required
        />
        <TextField
          label="New password"
          name="newPassword"
          type="password"
          autoComplete="new-password"
          required
          minLength={minLength}
        />
        <button type="submit" className="btn-dark" disabled={form.busy}>
          {form.busy ? "Saving…" : "Change password"}
        </button>
      </ActionForm>
    </div>
  );
}
