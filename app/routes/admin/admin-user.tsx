import { z } from "zod";
import type { Route } from "./+types/admin-user";
import { ActionForm, PageAnswer, useActionForm } from "#app/components/ActionForm.tsx";
import { SingleFieldCard } from "#app/components/SingleFieldForm.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";
import { formAction } from "#app/lib/form.server.ts";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "users");
  const user = await context.services.adminUsers.get(params.id);
  const { required } = context.services.twoFactor.rulesFor(user.userRole);
  return { user, required, twoFactorOn: await context.services.twoFactor.enabledForStaff(params.id) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "users");
  const form = await request.formData();
  if (form.get("intent") === "reset-two-factor") {
    // A lost phone (decision 040): their second factor and sessions end; they enrol again at their next sign-in.
    return formAction(form, {
      run: () => context.services.twoFactor.resetForStaff(params.id, viewer),
      success: "Two-factor sign-in is reset. They are signed out and set it up again at their next sign-in.",
    });
  }
  // The spec's screen changes the address; its hidden userRole is the role they have, which stays (the users screen
  // changes roles): a form posted with another one, or after a change of role elsewhere, is refused.
  const { userRole } = await context.services.adminUsers.get(params.id);
  return formAction(form, {
    schema: z.looseObject({
      userRole: z.literal(userRole, { error: "Their role changed meanwhile: open this page again." }).default(userRole),
    }),
    run: (input) => context.services.adminUsers.update(params.id, input, viewer),
    success: "Admin user is updated",
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Edit admin user" }, { name: "robots", content: "noindex" }];

export default function AdminUser({ loaderData: { user, required, twoFactorOn } }: Route.ComponentProps) {
  const reset = useActionForm({ id: `reset-two-factor:${user._id}` });
  return (
    <>
      <AdminHeader title="Edit admin user" back={{ to: "/add-user", label: "Admin user" }} />
      <SingleFieldCard
        note="The new address must belong to an account whose email is confirmed, or nobody could open the back office."
        name="userEmail"
        label="Admin email"
        intent="update"
        id={user._id}
        defaultValue={user.userEmail}
        submit="Update Admin"
        hidden={{ userRole: user.userRole }}
      />
      <div className="mt-6 rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <h2 className="text-lg text-forest">Two-factor sign-in</h2>
        <p className="mt-1 text-sm text-mist" data-testid="staff-two-factor">
          {twoFactorOn
            ? "On. If they lost their phone and their recovery codes, reset it: they are signed out everywhere and set it up again at their next sign-in."
            : required
              ? "Not set up yet. They are asked to set it up at their next sign-in."
              : "Not set up."}
        </p>
        {twoFactorOn ? (
          <ActionForm
            handle={reset}
            intent="reset-two-factor"
            className="mt-4"
            onSubmit={(e) => {
              if (!window.confirm(`Reset two-factor sign-in for ${user.userEmail}? They will be signed out.`)) {
                e.preventDefault();
              }
            }}
          >
            <button type="submit" className="btn-outline" disabled={reset.busy}>
              {reset.busy ? "Resetting…" : "Reset two-factor sign-in"}
            </button>
          </ActionForm>
        ) : (
          <PageAnswer form={`reset-two-factor:${user._id}`} />
        )}
      </div>
    </>
  );
}
