import { Link, NavLink, Outlet, useNavigation } from "react-router";
import type { Route } from "./+types/layout";
import { requireAdmin } from "../../lib/guards.server";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  return { email: viewer.email, paypalMode: context.services.paypal.mode };
}

/** Every area of the back office, in the order an administrator works through them. */
export const ADMIN_NAV = [
  { to: "/admin", label: "Dashboard", end: true },
  { to: "/total-orders", label: "Orders" },
  { to: "/all-messages", label: "Messages" },
  { to: "/all-subscriber", label: "Subscribers" },
  { to: "/setting", label: "Site content" },
  { to: "/media-library", label: "Media library" },
  { to: "/items-management", label: "Items" },
  { to: "/add-item", label: "Add item" },
  { to: "/add-user", label: "Admin user" },
  { to: "/add-paypal-Email", label: "Payment account" },
  { to: "/activity", label: "Activity log" },
] as const;

/** The one back-office layout: navigation to every area beside the page; a row of tabs on small screens. */
export default function AdminLayout({ loaderData }: Route.ComponentProps) {
  const navigation = useNavigation();
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
              {ADMIN_NAV.map((item) => (
                <li key={item.to} className="shrink-0">
                  <NavLink
                    to={item.to}
                    end={"end" in item ? item.end : false}
                    className={({ isActive }) =>
                      `block rounded-full px-4 py-2 text-sm font-medium whitespace-nowrap lg:rounded-lg ${isActive ? "bg-forest text-white" : "bg-white text-ink/80 ring-1 ring-linen hover:text-clay lg:bg-transparent lg:ring-0"}`
                    }
                  >
                    {item.label}
                  </NavLink>
                </li>
              ))}
            </ul>
          </nav>
          <p className="mt-6 hidden text-xs break-all text-mist lg:block">Signed in as {loaderData.email}</p>
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
