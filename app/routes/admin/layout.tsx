import { Link, Outlet, useLocation, useNavigation } from "react-router";
import type { Route } from "./+types/layout";
import { ADMIN_AREAS, areaHref, isAreaActive } from "../../content/admin-screens";
import { requireStaff } from "../../lib/guards.server";
import { can } from "../../../domain/capabilities";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context);
  // A bounded count over a partial index: cheap on every back-office page, however many orders exist.
  const toDeliver = can(viewer.staffRole, "orders") ? await context.services.orders.toDeliverCount() : undefined;
  // The navigation shows a staff member only the areas their role opens (decision 036).
  const areas = ADMIN_AREAS.filter((area) => can(viewer.staffRole, area.area)).map(areaHref);
  return { email: viewer.email, role: viewer.staffRole, paypalMode: context.services.paypal.mode, toDeliver, areas };
}

export type AdminLayoutData = Awaited<ReturnType<typeof loader>>;

/** The layout's data, re-read after every admin action, so the to-deliver badge follows each delivery. */
export const shouldRevalidate = () => true;

/** The one back-office layout: navigation to every area beside the page; a row of tabs on small screens. */
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
  const location = useLocation();
  const loadingOrder =
    navigation.state === "loading" && navigation.location.pathname.startsWith("/admin/payment-status/");
  return (
    <div className="bg-sand/50">
      <div className="container-page grid grid-cols-1 gap-8 py-8 lg:grid-cols-[14rem_1fr] lg:py-12">
        <aside className="min-w-0 lg:sticky lg:top-24 lg:self-start">
          <p className="eyebrow hidden lg:block">Back office</p>
          <nav
            aria-label="Back office"
            className="-mx-5 overflow-x-auto px-5 lg:mx-0 lg:mt-4 lg:overflow-visible lg:px-0"
          >
            <ul className="flex gap-2 lg:flex-col lg:gap-1">
              {ADMIN_AREAS.filter((area) => loaderData.areas.includes(areaHref(area))).map((area) => {
                const active = isAreaActive(area, location.pathname, location.search);
                const count = area.badge ? loaderData[area.badge] : undefined;
                return (
                  <li key={areaHref(area)} className="shrink-0">
                    <Link
                      to={areaHref(area)}
                      aria-current={active ? "page" : undefined}
                      className={`flex items-center justify-between gap-2 rounded-full px-4 py-2 text-sm font-medium whitespace-nowrap lg:rounded-lg ${active ? "bg-forest text-white" : "bg-white text-ink/80 ring-1 ring-linen hover:text-clay lg:bg-transparent lg:ring-0"}`}
                    >
                      {area.label}
                      {count && count.total > 0 ? (
                        <span
                          className={`rounded-full px-2 py-0.5 text-xs font-semibold ${active ? "bg-white text-forest" : "bg-clay text-white"}`}
                          data-testid={`nav-count-${area.badge}`}
                        >
                          {count.total}
                          {count.capped ? "+" : ""}
                          <span className="sr-only"> waiting</span>
                        </span>
                      ) : null}
                    </Link>
                  </li>
                );
              })}
            </ul>
          </nav>
          <p className="mt-6 hidden text-xs break-all text-mist lg:block">
            Signed in as {loaderData.email} ({loaderData.role})
          </p>
        </aside>
        <div className="min-w-0">
          {loaderData.paypalMode !== "live" ? (
            <p
              className="mb-6 rounded-xl bg-amber-50 px-4 py-2.5 text-xs text-amber-900 ring-1 ring-amber-200"
              role="note"
            >
              Payments run in{" "}
              {loaderData.paypalMode === "simulator" ? "the built-in PayPal simulator" : "the PayPal sandbox"}{" "}
              (PAYPAL_MODE=
              {loaderData.paypalMode}): no real money moves.
            </p>
          ) : null}
          {loadingOrder ? (
            <div
              role="status"
              className="flex items-center gap-3 rounded-2xl bg-white p-8 text-sm text-mist ring-1 ring-linen"
            >
              <span
                className="h-6 w-6 animate-spin rounded-full border-4 border-linen border-t-clay"
                aria-hidden="true"
              />
              Loading order details...
            </div>
          ) : (
            <Outlet />
          )}
        </div>
      </div>
    </div>
  );
}

/** A back-office page's heading with optional actions on the right. */
export function AdminHeader({
  title,
  lead,
  back,
  actions,
}: {
  title: string;
  lead?: React.ReactNode;
  /** The screen this one belongs to, linked under the title. */
  back?: { to: string; label: string };
  actions?: React.ReactNode;
}) {
  return (
    <div className="mb-8 flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-3xl text-forest">{title}</h1>
        {lead ? <p className="mt-2 text-sm text-mist">{lead}</p> : null}
        {back ? (
          <p className="mt-2 text-sm text-mist">
            <Link to={back.to} className="hover:text-clay">
              ← {back.label}
            </Link>
          </p>
        ) : null}
      </div>
      {actions ? <div className="flex flex-wrap gap-2">{actions}</div> : null}
    </div>
  );
}
