import { Link } from "react-router";
import type { Route } from "./+types/home";
import { requireAdmin } from "../../lib/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  return { email: viewer.email };
}

export const meta: Route.MetaFunction = () => [{ title: "Admin" }, { name: "robots", content: "noindex" }];

export default function AdminHome({ loaderData }: Route.ComponentProps) {
  return (
    <section className="bg-sand/60">
      <div className="container-page py-12 sm:py-16">
        <p className="eyebrow">Admin</p>
        <h1 className="mt-2 text-3xl text-forest sm:text-4xl">Welcome to Admin Panel</h1>
        <p className="mt-3 text-sm text-mist">Signed in as {loaderData.email}.</p>
        <Link to="/" className="btn-outline mt-8">
          View the site
        </Link>
      </div>
    </section>
  );
}
