import type { Route } from "./+types/admin-user";
import { SingleFieldForm } from "../../components/SingleFieldForm";
import { requireAdmin } from "../../lib/guards.server";
import { AdminHeader } from "./layout";
import { singleFieldAction } from "./single-field.server";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return { user: await context.services.adminUsers.get(params.id) };
}

export const action = ({ request, context, params }: Route.ActionArgs) =>
  singleFieldAction(
    request,
    context,
    "userEmail",
    (_i, _id, input, actor) => context.services.adminUsers.update(params.id, { ...input, userRole: "Admin" }, actor),
    "Admin user is updated",
  );

export const meta: Route.MetaFunction = () => [{ title: "Edit admin user" }, { name: "robots", content: "noindex" }];

export default function AdminUser({ loaderData: { user } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader title="Edit admin user" back={{ to: "/add-user", label: "Admin user" }} />
      <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        <p className="mb-4 text-sm text-mist">
          The new address must belong to an account whose email is confirmed, or nobody could open the back office.
        </p>
        <SingleFieldForm
          name="userEmail"
          label="Admin email"
          intent="update"
          id={user._id}
          defaultValue={user.userEmail}
          submit="Update Admin"
          hidden={{ userRole: "Admin" }}
        />
      </div>
    </>
  );
}
