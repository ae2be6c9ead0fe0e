import { Link } from "react-router";
import type { Route } from "./+types/add-user";
import { SingleFieldForm } from "../../components/SingleFieldForm";
import { requireAdmin } from "../../lib/guards.server";
import { AdminHeader } from "./layout";
import { formAction } from "../../lib/form.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return { users: await context.services.adminUsers.list() };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireAdmin(request, context);
  return formAction(await request.formData(), {
    run: (input) => context.services.adminUsers.create({ ...input, userRole: "Admin" }, viewer),
    success: "Admin user is added",
    reset: true,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Admin user" }, { name: "robots", content: "noindex" }];

/** The admin user: with one record only its edit link shows; with none, the add form (spec 2). */
export default function AddUser({ loaderData: { users } }: Route.ComponentProps) {
  const [only] = users;
  return (
    <>
      <AdminHeader
        title="Admin user"
        lead="The account whose email is listed here (once confirmed) runs the back office."
      />
      <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
        {users.length === 1 && only ? (
          <div className="flex flex-wrap items-center justify-between gap-4">
            <p className="text-sm">
              {only.userEmail} · <span className="text-mist">{only.userRole}</span>
            </p>
            <Link to={`/admin-user/${only._id}`} className="btn-dark">
              Edit Admin User
            </Link>
          </div>
        ) : (
          <SingleFieldForm name="userEmail" label="Admin email" intent="add" submit="Add Admin" />
        )}
      </div>
    </>
  );
}
