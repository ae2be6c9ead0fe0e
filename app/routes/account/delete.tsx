import { Link, redirect } from "react-router";
import type { Route } from "./+types/delete";
import { deleteAccountSchema } from "#domain/privacy.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { FormAlert } from "#app/components/FormAlert.tsx";
import { DangerButton, TextField } from "#app/components/forms.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireUser } from "#app/lib/guards.server.ts";

/** "Delete my account": what happens, then the current password (and the second factor's code when it is on). */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const { privacy, adminUsers } = context.services;
  const [needsCode, staff] = await Promise.all([privacy.needsCode(viewer.id), adminUsers.list()]);
  const admins = staff.filter((s) => s.userRole === "Admin").length;
  return {
    email: viewer.email,
    needsCode,
    staffRole: viewer.staffRole,
    lastAdmin: viewer.staffRole === "Admin" && admins <= 1,
    backupsKept: context.services.privacy.backupsKept,
  };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireUser(request, context);
  return formAction(await request.formData(), {
    schema: deleteAccountSchema,
    hide: ["password", "code"],
    run: async (value) => {
      await context.services.privacy.deleteOwnAccount(viewer, value);
      // The sessions are gone with the account: this clears the browser's cookies.
      const headers = await context.services.accounts.signOut(request.headers);
      throw redirect("/account/deleted", { headers });
    },
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Delete my account" }, { name: "robots", content: "noindex" }];

export default function DeleteAccount({ loaderData }: Route.ComponentProps) {
  const { email, needsCode, staffRole, lastAdmin, backupsKept } = loaderData;
  const form = useActionForm({ id: "delete-account", feedback: "inline" });
  return (
    <div className="max-w-3xl">
      <div className="space-y-4 rounded-2xl bg-white p-6 text-ink/90 ring-1 ring-linen sm:p-8">
        <p>
          Deleting the account of <strong>{email}</strong> cannot be undone. You may want to{" "}
          <Link to="/account/data" className="font-semibold text-clay hover:underline">
            download your data
          </Link>{" "}
          first.
        </p>
        <ul className="list-disc space-y-2 pl-6">
          <li>You are signed out everywhere and can no longer sign in with this email and password.</li>
          <li>
            We erase your name, email, password, sessions, newsletter signup, the messages you sent us with this email
            and what you accepted when you registered.
          </li>
          <li>
            Orders you paid stay in our accounts for six years, as UK tax law asks, without your name, email or address:
            only their number, package, amount, dates, country and PayPal&apos;s transaction number. Unpaid orders are
            cancelled.
          </li>
          <li>
            Our last {backupsKept} backups (one a day) still hold your data until newer ones replace them. If we ever
            have to restore one, we erase your data from it again.
          </li>
          {staffRole ? <li>You leave the staff ({staffRole}) at the same time.</li> : null}
        </ul>
      </div>

      {lastAdmin ? (
        <div className="mt-8">
          <FormAlert>
            You are the last Admin: make someone else an Admin on the users screen before you delete your account.
          </FormAlert>
        </div>
      ) : (
        <div className="mt-8 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
          <ActionForm handle={form} className="space-y-5" testId="delete-account-form">
            <TextField
              label="Current password"
              name="password"
              type="password"
              autoComplete="current-password"
              required
            />
            {needsCode ? (
              <TextField
                label="Code from your authenticator app, or a recovery code"
                name="code"
                autoComplete="one-time-code"
                inputMode="text"
                required
              />
            ) : null}
            <DangerButton busy={form.busy} busyLabel="Deleting…" testId="delete-account">
              Delete my account
            </DangerButton>
          </ActionForm>
        </div>
      )}
    </div>
  );
}
