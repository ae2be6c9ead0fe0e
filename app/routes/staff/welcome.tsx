import { data, Link, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/welcome";
import { newPasswordSchema } from "../../../domain/account-forms";
import { STAFF_WELCOME } from "../../../domain/staff-words";
import { ActionForm, useActionForm } from "../../components/ActionForm";
import { PasswordField } from "../../components/AuthCard";
import { StaffCard } from "../../components/back-office/StaffCard";
import { FormAlert } from "../../components/FormAlert";
import { formAction } from "../../lib/form.server";
import { attempt } from "../../lib/guards.server";

/**
 * A staff invitation's page (issue 33, item 14): the mailed link (better-auth checks its token, then sends the browser
 * here with ?token=…) lets the invited person choose their password in the back office's frame and words, and signs them
 * in at once. The customer's reset and sign-in pages are never shown to them.
 */
export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("error") ? null : url.searchParams.get("token");
  const invitation = token ? await context.services.accounts.invitationOf(token) : null;
  return data({ role: invitation?.role ?? null }, { headers: { "Cache-Control": "private, no-store" } });
}

export async function action({ request, context }: Route.ActionArgs) {
  return formAction(await request.formData(), {
    schema: newPasswordSchema,
    hide: ["password"],
    run: async (value) => {
      const signedIn = await context.services.accounts.acceptInvitation(value, attempt(request, context));
      if (signedIn.secondFactor) throw redirect("/login/two-factor", { headers: signedIn.headers });
      throw redirect(signedIn.landing, { headers: signedIn.headers });
    },
  });
}

export const meta: Route.MetaFunction = () => [{ title: STAFF_WELCOME.title }, { name: "robots", content: "noindex" }];

export default function StaffWelcome({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const form = useActionForm({ id: "staff-welcome", feedback: "inline" });
  const tokenError = form.fields.token?.errors?.[0];
  const role = loaderData.role;
  return (
    <StaffCard title={STAFF_WELCOME.title} lead={role ? STAFF_WELCOME.lead(role) : undefined}>
      {!role ? (
        <>
          <FormAlert>{STAFF_WELCOME.expired}</FormAlert>
          <p className="mt-6 text-sm">
            <Link to="/login" className="font-semibold text-clay hover:underline">
              {STAFF_WELCOME.signIn}
            </Link>
          </p>
        </>
      ) : (
        <>
          {tokenError ? <FormAlert>{tokenError}</FormAlert> : null}
          <ActionForm handle={form} hidden={{ token }} className="space-y-5">
            <PasswordField label={STAFF_WELCOME.field} autoComplete="new-password" />
            <p className="-mt-3 text-xs text-mist">{STAFF_WELCOME.hint}</p>
            <button type="submit" className="btn-dark w-full" disabled={form.busy}>
              {form.busy ? STAFF_WELCOME.busy : STAFF_WELCOME.button}
            </button>
          </ActionForm>
        </>
      )}
    </StaffCard>
  );
}
