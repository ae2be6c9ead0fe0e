import type { Route } from "./+types/admin-user";
import { SingleFieldCard } from "../../components/SingleFieldForm";
import { requireStaff } from "../../lib/guards.server";
import { AdminHeader } from "./layout";
import { formAction } from "../../lib/form.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "users");
  return { user: await context.services.adminUsers.get(params.id) };
}

export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "users");
  return formAction(await request.formData(), {
    // The spec's screen changes the address; the role stays what it is (the users screen changes roles).
    run: async (input) =>
      context.services.adminUsers.update(
        params.id,
        { ...input, userRole: (await context.services.adminUsers.get(params.id)).userRole },
        viewer,
      ),
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
