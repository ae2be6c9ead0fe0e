import type { Route } from "./+types/admin-user";
import { SingleFieldCard } from "../../components/SingleFieldForm";
import { requireAdmin } from "../../lib/guards.server";
import { AdminHeader } from "./layout";
import { formAction } from "../../lib/form.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return { user: await context.services.adminUsers.get(params.id) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  return formAction(await request.formData(), {
    run: (input) => context.services.adminUsers.update(params.id, { ...input, userRole: "Admin" }, viewer),
    success: "Admin user is updated",
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Edit admin user" }, { name: "robots", content: "noindex" }];

export default function AdminUser({ loaderData: { user } }: Route.ComponentProps) {
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
      />
    </>
  );
}
