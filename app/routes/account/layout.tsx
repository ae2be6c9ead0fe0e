import { Link, Outlet, useLocation } from "react-router";
import type { Route } from "./+types/layout";
import { requireUser } from "#app/lib/guards.server.ts";
import { ACCOUNT_SECTIONS, sectionOf } from "./sections";

/** Every page of the area starts with its own guard too; this one keeps the frame from showing to a visitor. */
export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  return { email: viewer.email };
}

/** "My account": the frame of its pages, with the area's sub-navigation (sections.ts). */
export default function AccountLayout({ loaderData }: Route.ComponentProps) {
  const { pathname } = useLocation();
  const current = sectionOf(pathname);
  return (
    <section className="bg-sand/60">
      <div className="container-page py-10 sm:py-14">
        <div className="flex flex-wrap items-end justify-between gap-3">
          <div>
            <p className="eyebrow">My account</p>
            <p className="mt-1 text-sm break-all text-mist">{loaderData.email}</p>
          </div>
          <Link to="/dashboard" className="text-sm font-medium text-clay hover:underline">
            ← Dashboard
          </Link>
        </div>
        <div className="mt-6 grid gap-8 lg:grid-cols-[14rem_1fr]">
          {/* On a phone the sections wrap onto a few rows, every one in sight (scrolled sideways, the current one could
              be off the screen). */}
          <nav aria-label="My account">
            <ul className="flex flex-wrap gap-2 lg:flex-col lg:flex-nowrap lg:gap-1">
              {ACCOUNT_SECTIONS.map((s) => {
                const active = s === current;
                return (
                  <li key={s.to} className="shrink-0">
                    <Link
                      to={s.to}
                      aria-current={active ? "page" : undefined}
                      className={`block rounded-full px-4 py-2 text-sm font-medium whitespace-nowrap lg:rounded-xl ${active ? "bg-forest text-white" : "bg-white text-ink/80 ring-1 ring-linen hover:text-clay lg:bg-transparent lg:ring-0 lg:hover:bg-white"}`}
                    >
                      {s.label}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
          <div className="min-w-0">
            {current ? (
              <header className="mb-6">
                <h1 className="text-3xl text-forest sm:text-4xl">{current.label}</h1>
                <p className="mt-2 text-ink/80">{current.summary}</p>
              </header>
            ) : null}
            <Outlet />
          </div>
        </div>
      </div>
    </section>
  );
}
