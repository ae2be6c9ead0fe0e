import { Link } from "react-router";
import type { Route } from "./+types/setting";
import { ADMIN_SCREENS } from "../../content/admin-screens";
import { requireAdmin } from "../../lib/guards.server";
import { AdminHeader } from "./layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireAdmin(request, context);
  return null;
}

export const meta: Route.MetaFunction = () => [{ title: "Site content" }, { name: "robots", content: "noindex" }];

/** The settings hub: a card for every content screen (spec 2 names the first six; the registry gives the rest). */
export default function Setting() {
  return (
    <>
      <AdminHeader title="Site content" lead="Every section of the public site. Changes show on the site at once." />
      <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
        {ADMIN_SCREENS.map((screen) => (
          <li key={screen.path}>
            <Link
              to={screen.path}
              className="block h-full rounded-2xl bg-white p-6 ring-1 ring-linen transition-shadow hover:shadow-md"
            >
              <p className="font-serif text-lg text-forest">{screen.sections[0]!.admin.heading}</p>
              <p className="mt-1 text-xs text-mist">{screen.sections.map((s) => s.title).join(" · ")}</p>
            </Link>
          </li>
        ))}
      </ul>
    </>
  );
}
