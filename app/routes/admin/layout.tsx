import { useEffect, useRef } from "react";
import { Form, Link, Outlet, useLocation, useNavigation, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/layout";
import { SideNav } from "#app/components/back-office/SideNav.tsx";
import { SiteErrorPage } from "#app/components/back-office/SiteErrorPage.tsx";
import { ErrorPanel, describeError } from "#app/components/ErrorPanel.tsx";
import { ADMIN_AREAS, areaHref } from "#app/content/back-office-nav.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import type { RootData } from "#app/root.tsx";
import { staffRefusal } from "#domain/staff-words.ts";
import { can, staffHome } from "#domain/capabilities.ts";

/** The layout's route id, as the root and the pages read its data. */
export const BACK_OFFICE_LAYOUT = "routes/admin/layout";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context);
  // Counts from the maintained tallies and a capped index range: the same cost on every page, however many rows exist.
  const { toDeliver, unread } = await context.services.backOffice.navCounts(viewer.staffRole);
  // The navigation shows a staff member only the areas their role opens (decision 036).
  const areas = ADMIN_AREAS.filter((area) => can(viewer.staffRole, area.area)).map(areaHref);
  return {
    email: viewer.email,
    role: viewer.staffRole,
    paypalMode: context.services.paypal.mode,
    toDeliver,
    unread,
    areas,
    // Staff only: the version and commit that run, for telling support which one this is.
    version: { label: context.config.version, commit: context.config.commit },
  };
}

export type AdminLayoutData = Awaited<ReturnType<typeof loader>>;

/** The layout's data, re-read after every admin action, so the counts follow each delivery and each message read. */
export const shouldRevalidate = () => true;

/**
 * The back office, a workspace of its own: the side navigation grouped by task beside the page (behind a Menu button
 * on small screens, which opens without JavaScript), the signed-in person and Sign out; no marketing header or footer.
 */
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const loadingOrder =
    navigation.state === "loading" && navigation.location.pathname.startsWith("/admin/payment-status/");
  return (
    <BackOfficeFrame data={loaderData}>
      {loadingOrder ? (
        <div
          role="status"
          className="flex items-center gap-3 rounded-2xl bg-white p-8 text-sm text-mist ring-1 ring-linen"
        >
          <span className="h-6 w-6 animate-spin rounded-full border-4 border-linen border-t-clay" aria-hidden="true" />
          Loading order details...
        </div>
      ) : (
        <Outlet />
      )}
    </BackOfficeFrame>
  );
}

/**
 * A page of the back office that failed (403 for a role that does not open it, 404, 500): in the back office's frame
 * for staff; for anyone else (the layout's own guard refused them) the site's error page, in the site's frame, loaded
 * for that page alone.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const data = useRouteLoaderData<AdminLayoutData>(BACK_OFFICE_LAYOUT);
  const root = useRouteLoaderData<RootData>("root");
  if (!data) return <SiteErrorPage />;
  return (
    <BackOfficeFrame data={data}>
      <title>{`${describeError(error).title} | ${root?.siteName ?? "Studio"}`}</title>
      <div className="rounded-2xl bg-white ring-1 ring-linen">
        <ErrorPanel
          error={error}
          refusal={staffRefusal(data.role)}
          ways={[{ to: staffHome(data.role), label: "Back to the back office" }]}
        />
      </div>
    </BackOfficeFrame>
  );
}

/** The frame around every back-office page: the side navigation and the page's main landmark. */
function BackOfficeFrame({ data, children }: { data: AdminLayoutData; children: React.ReactNode }) {
  const root = useRouteLoaderData<RootData>("root");
  const location = useLocation();
  const navigation = useNavigation();
  const menu = useRef<HTMLDetailsElement>(null);
  // The menu of small screens closes once a page is chosen (without JavaScript, the new page arrives closed).
  useEffect(() => menu.current?.removeAttribute("open"), [location.key]);
  return (
    <div className="min-h-dvh w-full bg-sand/50 xl:grid xl:grid-cols-[15rem_minmax(0,1fr)]">
      <aside className="relative bg-forest text-white xl:sticky xl:top-0 xl:flex xl:h-dvh xl:flex-col xl:overflow-y-auto">
        <div className="flex h-14 items-center px-5 xl:h-auto xl:pt-6 xl:pb-2">
          <Link
            to="/"
            className="rounded font-serif text-lg text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass"
          >
            {root?.siteName ?? "Studio"}
            <span className="ml-2 align-middle font-sans text-xs font-medium text-white/60">View site</span>
          </Link>
        </div>
        {/* The menu button of small screens: a native disclosure, so it opens without JavaScript; the navigation is
            the element after it (Tailwind's peer-open), always shown from the lg width up. */}
        <details ref={menu} className="peer absolute top-2.5 right-4 xl:hidden" data-testid="back-office-menu">
          <summary className="flex cursor-pointer list-none items-center gap-2 rounded-full px-4 py-2 text-sm font-semibold text-white ring-1 ring-white/40 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass [&::-webkit-details-marker]:hidden">
            <span aria-hidden="true" className="text-base leading-none">
              ☰
            </span>
            Menu
          </summary>
        </details>
        <div className="hidden border-t border-white/10 peer-open:block xl:flex xl:flex-1 xl:flex-col xl:border-0">
          <SideNav hrefs={data.areas} counts={{ toDeliver: data.toDeliver, unread: data.unread }} />
          <div className="border-t border-white/10 px-7 py-4 text-sm xl:mt-auto" data-testid="signed-in">
            <Link
              to="/account"
              className="block rounded break-all text-white/85 hover:text-white focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass"
            >
              <span className="block text-xs text-white/60">Signed in · {data.role}</span>
              {data.email}
            </Link>
            <Form method="post" action="/logout" className="mt-3">
              <button
                type="submit"
                className="rounded-full px-4 py-1.5 text-xs font-semibold text-white ring-1 ring-white/40 hover:bg-white/10 focus-visible:outline-2 focus-visible:outline-offset-2 focus-visible:outline-brass"
              >
                Sign Out
              </button>
            </Form>
          </div>
        </div>
      </aside>
      <main
        id="main"
        className={`min-w-0 px-4 py-6 transition-opacity duration-300 sm:px-6 xl:px-8 xl:py-8 ${navigation.state === "loading" ? "opacity-60" : "opacity-100"}`}
      >
        <div className="mx-auto w-full max-w-[1600px]">
          {data.paypalMode !== "live" ? (
            <p
              className="mb-6 rounded-xl bg-amber-50 px-4 py-2.5 text-xs text-amber-900 ring-1 ring-amber-200"
              role="note"
            >
              Payments run in {data.paypalMode === "simulator" ? "the built-in PayPal simulator" : "the PayPal sandbox"}{" "}
              (PAYPAL_MODE=
              {data.paypalMode}): no real money moves.
            </p>
          ) : null}
          {children}
          {/* The foot of every page: a line, not a <footer> landmark (the back office has no site footer). */}
          <p className="mt-12 text-xs text-mist" data-testid="version">
            <span title={data.version.commit}>Version {data.version.label}</span>
          </p>
        </div>
      </main>
    </div>
  );
}
