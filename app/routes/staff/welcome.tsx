import { data, Link, redirect, useSearchParams } from "react-router";
import type { Route } from "./+types/welcome";
import { newPasswordSchema } from "#domain/account-forms.ts";
import { STAFF_RESET, STAFF_WELCOME } from "#domain/staff-words.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { PasswordField } from "#app/components/AuthCard.tsx";
import { StaffCard } from "#app/components/back-office/StaffCard.tsx";
import { FormAlert } from "#app/components/FormAlert.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { attempt } from "#app/lib/guards.server.ts";

/**
 * A staff invitation's page (issue 33, item 14): the mailed link (better-auth checks its token, then sends the browser
 * here with ?token=…) lets the invited person choose their password in the back office's frame and words, and signs them
 * in at once. The customer's reset and sign-in pages are never shown to them. A staff member who forgot their password
 * comes here too (`?for=reset`, set by the reset mail for a staff address), with words of their own.
 */
const isReset = (request: Request) => new URL(request.url).searchParams.get("for") === "reset";

export async function loader({ request, context }: Route.LoaderArgs) {
  const url = new URL(request.url);
  const token = url.searchParams.get("error") ? null : url.searchParams.get("token");
  const invitation = token ? await context.services.accounts.invitationOf(token) : null;
  return data(
    { role: invitation?.role ?? null, reset: isReset(request) },
    { headers: { "Cache-Control": "private, no-store" } },
  );
}

export async function action({ request, context }: Route.ActionArgs) {
  return formAction(await request.formData(), {
    schema: newPasswordSchema,
    hide: ["password"],
    run: async (value) => {
      const signedIn = await context.services.accounts.acceptInvitation(value, attempt(request, context), {
        reset: isReset(request),
      });
      if (signedIn.secondFactor) throw redirect("/login/two-factor", { headers: signedIn.headers });
      throw redirect(signedIn.landing, { headers: signedIn.headers });
    },
  });
}

export const meta: Route.MetaFunction = ({ data: loaded }) => [
  { title: loaded?.reset ? STAFF_RESET.title : STAFF_WELCOME.title },
  { name: "robots", content: "noindex" },
];

export default function StaffWelcome({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const token = params.get("token") ?? "";
  const form = useActionForm({ id: "staff-welcome", feedback: "inline" });
  const tokenError = form.fields.token?.errors?.[0];
  const { role, reset } = loaderData;
  const title = reset ? STAFF_RESET.title : STAFF_WELCOME.title;
  const lead = role ? (reset ? STAFF_RESET.lead(role) : STAFF_WELCOME.lead(role)) : undefined;
  const button = reset ? STAFF_RESET.button : STAFF_WELCOME.button;
  return (
    <StaffCard title={title} lead={lead}>
      {!role ? (
        <>
          <FormAlert>{reset ? STAFF_RESET.expired : STAFF_WELCOME.expired}</FormAlert>
          <p className="mt-6 flex flex-wrap gap-x-6 gap-y-2 text-sm">
            {reset ? (
              <Link to="/reset" className="font-semibold text-clay hover:underline">
                {STAFF_RESET.ask}
              </Link>
            ) : null}
            <Link to="/login?for=staff" className="font-semibold text-clay hover:underline">
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
              {form.busy ? STAFF_WELCOME.busy : button}
            </button>
          </ActionForm>
        </>
      )}
    </StaffCard>
  );
}
