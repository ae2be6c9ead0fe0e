import { Link } from "react-router";
import type { Route } from "./+types/setting";
import { HUB_GROUPS } from "#app/content/admin-screens.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "content");
  // The hub's cards come with the page: they are read from the content registry, which its scripts leave out.
  return { groups: HUB_GROUPS };
}

export const meta: Route.MetaFunction = () => [{ title: "Site content" }, { name: "robots", content: "noindex" }];

/**
 * The settings hub: a card for every content screen (spec 2 names the first six; the registry gives the rest),
 * grouped by the public page where its sections appear (app/content/pages.ts), each group linking to its page.
 */
export default function Setting({ loaderData: { groups } }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader title="Site content" lead="Every section of the public site. Changes show on the site at once." />
      <div className="space-y-10">
        {groups.map((group) => (
          <section key={group.page} aria-labelledby={`hub-${group.page}`} data-testid={`hub-${group.page}`}>
            <div className="mb-4 flex flex-wrap items-baseline justify-between gap-3">
              <h2 id={`hub-${group.page}`} className="font-serif text-xl text-forest">
                {group.name}
              </h2>
              <Link to={group.path} className="text-sm font-semibold text-clay hover:underline">
                View on site<span className="sr-only"> ({group.name})</span> <span aria-hidden="true">→</span>
              </Link>
            </div>
            <ul className="grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
              {group.screens.map((screen) => (
                <li key={screen.path}>
                  <Link
                    to={screen.path}
                    className="block h-full rounded-2xl bg-white p-6 ring-1 ring-linen transition-shadow hover:shadow-md"
                  >
                    <p className="font-serif text-lg text-forest">{screen.heading}</p>
                    <p className="mt-1 text-xs text-mist">{screen.sections.join(" · ")}</p>
                  </Link>
                </li>
              ))}
            </ul>
          </section>
        ))}
      </div>
    </>
  );
}
