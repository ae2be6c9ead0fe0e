import type { Route } from "./+types/profile";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireUser } from "#app/lib/guards.server.ts";
import { emailChangeSchema, MY_ACCOUNT_MESSAGES, profileSchema } from "#domain/my-account-forms.ts";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  return {
    name: viewer.name,
    email: viewer.email,
    emailVerified: viewer.emailVerified,
    staff: viewer.staffRole !== null,
  };
}

/** The name, or a change of email (a link to the new address; the account keeps its email until it is followed). */
export async function action({ request, context }: Route.ActionArgs) {
  await requireUser(request, context);
  const form = await request.formData();
  const { myAccount } = context.services;
  if (form.get("intent") === "email") {
    return formAction(form, {
      schema: emailChangeSchema,
      run: (input) => myAccount.requestEmailChange(input, request.headers),
      success: ({ newEmail }) => MY_ACCOUNT_MESSAGES.emailSent(newEmail),
      reset: true,
    });
  }
  return formAction(form, {
    schema: profileSchema,
    run: (input) => myAccount.updateName(input, request.headers),
    success: MY_ACCOUNT_MESSAGES.nameSaved,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "My account" }, { name: "robots", content: "noindex" }];

export default function Profile({ loaderData }: Route.ComponentProps) {
  const { name, email, emailVerified, staff } = loaderData;
  const nameForm = useActionForm({ id: "name", defaultValue: { name }, feedback: "inline" });
  const emailForm = useActionForm({ id: "email", feedback: "inline" });
  return (
    <div className="space-y-6">
      <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <h2 className="text-xl text-forest">Name</h2>
        <p className="mt-1 text-sm text-mist">How we greet you, on your dashboard and in our emails.</p>
        <ActionForm handle={nameForm} intent="name" className="mt-5 flex flex-wrap items-end gap-3">
          <TextField label="Name" name="name" autoComplete="name" maxLength={100} className="min-w-0 flex-1 basis-64" />
          <button type="submit" className="btn-dark" disabled={nameForm.busy}>
            {nameForm.busy ? "Saving…" : "Save name"}
          </button>
        </ActionForm>
      </div>

      <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <h2 className="text-xl text-forest">Email address</h2>
        <p className="mt-1 text-sm text-ink/80">
          You sign in with <strong className="break-all">{email}</strong>
          {emailVerified ? "." : " (not confirmed yet)."}
        </p>
        <p className="mt-1 text-sm text-mist">
          To change it, enter the new address: we send it a link, and your email changes only when you follow it. We
          also tell your current address, in case it was not you.
          {staff ? " Your back-office access moves to the new address with it." : ""}
        </p>
        <ActionForm handle={emailForm} intent="email" className="mt-5 flex flex-wrap items-end gap-3">
          <TextField
            label="New email"
            name="newEmail"
            type="email"
            autoComplete="email"
            required
            className="min-w-0 flex-1 basis-64"
          />
          <button type="submit" className="btn-dark" disabled={emailForm.busy}>
            {emailForm.busy ? "Sending…" : "Send confirmation link"}
          </button>
        </ActionForm>
      </div>
    </div>
  );
}
