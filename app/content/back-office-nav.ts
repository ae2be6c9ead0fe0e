import type { StaffArea } from "#domain/capabilities.ts";

/*
 * The back office's navigation, the one list of it: what the side navigation beside every admin page needs (each
 * entry's label, path, group and area), without the content registry, so the back office's frame loads no registry
 * code. The registry's screens are reached from the "Site content" hub (/setting); admin-screens.ts re-exports this
 * module, and its unit test checks that the two agree.
 */

/** The back office's navigation groups, by task, in the order the side navigation shows them. */
export const BACK_OFFICE_GROUPS = ["Today", "Orders", "Customers", "Content", "Inbox", "Reports", "Settings"] as const;
export type BackOfficeGroup = (typeof BACK_OFFICE_GROUPS)[number];

/** The counts the layout's loader provides for navigation entries (app/routes/admin/layout.tsx). */
export type NavBadge = "toDeliver" | "unread";

/**
 * Every area of the back office, grouped by task (`group`, in BACK_OFFICE_GROUPS' order): the navigation beside every
 * admin page, the one list of it. `badge` names a count the layout's loader provides; `search` makes an entry a view of
 * another's path.
 */
export const ADMIN_AREAS: readonly {
  to: string;
  label: string;
  group: BackOfficeGroup;
  /** Active only on exactly this path (the dashboard, whose path starts others). */
  end?: boolean;
  /** A view of the path with this search (e.g. the to-deliver view of the orders desk). */
  search?: string;
  badge?: NavBadge;
  /** What the page is for (domain/capabilities.ts): the entry shows only to staff whose role opens it. */
  area: StaffArea;
}[] = [
  { to: "/today", label: "Today", group: "Today", end: true, area: "orders" },
  { to: "/total-orders", label: "Orders", group: "Orders", area: "orders" },
  {
    to: "/total-orders",
    search: "view=to-deliver",
    label: "To deliver",
    group: "Orders",
    badge: "toDeliver",
    area: "orders",
  },
  { to: "/admin", label: "Dashboard", group: "Orders", end: true, area: "orders" },
  { to: "/discount-codes", label: "Discount codes", group: "Orders", area: "orders" },
  { to: "/customers", label: "Customers", group: "Customers", area: "customers" },
  { to: "/customers/import", label: "Import members", group: "Customers", area: "customers" },
  { to: "/all-subscriber", label: "Subscribers", group: "Customers", area: "subscribers" },
  { to: "/newsletters", label: "Newsletters", group: "Customers", area: "subscribers" },
  { to: "/suppressions", label: "Suppression list", group: "Customers", area: "subscribers" },
  { to: "/setting", label: "Site content", group: "Content", area: "content" },
  { to: "/articles", label: "Articles", group: "Content", area: "content" },
  { to: "/media-library", label: "Media library", group: "Content", area: "media" },
  { to: "/items-management", label: "Items", group: "Content", area: "items" },
  { to: "/add-item", label: "Add item", group: "Content", area: "items" },
  { to: "/search-listings", label: "Search listings", group: "Content", area: "content" },
  { to: "/trash", label: "Trash", group: "Content", area: "content" },
  { to: "/all-messages", label: "Messages", group: "Inbox", badge: "unread", area: "messages" },
  { to: "/reports", label: "Reports", group: "Reports", area: "reports" },
  { to: "/activity", label: "Activity log", group: "Reports", area: "activity" },
  { to: "/add-user", label: "Users", group: "Settings", area: "users" },
  { to: "/add-paypal-Email", label: "Payment account", group: "Settings", area: "payments" },
  { to: "/mail-settings", label: "Mails", group: "Settings", area: "settings" },
  { to: "/money-settings", label: "Currency and VAT", group: "Settings", area: "settings" },
  { to: "/invoice-settings", label: "Invoice details", group: "Settings", area: "settings" },
  { to: "/background-jobs", label: "Background jobs", group: "Settings", area: "settings" },
  { to: "/api-keys", label: "API keys", group: "Settings", area: "settings" },
  { to: "/webhooks", label: "Webhooks", group: "Settings", area: "settings" },
  { to: "/backups", label: "Backups", group: "Settings", area: "backups" },
];

/**
 * Whether a navigation entry is the current area: its path (and its view's search, if it is one); the plain entry of
 * a path is not active on one of its views.
 */
export function isAreaActive(area: (typeof ADMIN_AREAS)[number], pathname: string, search: string): boolean {
  const path = pathname.replace(/\/$/, "") || "/";
  const matchesPath = area.end ? path === area.to : path === area.to || path.startsWith(`${area.to}/`);
  if (!matchesPath) return false;
  // A longer entry under this one's path that matches is the active one (Import members under Customers).
  const under = (to: string) => to.startsWith(`${area.to}/`) && (path === to || path.startsWith(`${to}/`));
  if (ADMIN_AREAS.some((a) => under(a.to))) return false;
  const params = new URLSearchParams(search);
  const views = ADMIN_AREAS.filter((a) => a.to === area.to && a.search);
  if (area.search) return [...new URLSearchParams(area.search)].every(([k, v]) => params.get(k) === v);
  return !views.some((v) => [...new URLSearchParams(v.search)].every(([k, val]) => params.get(k) === val));
}

/** The address of a navigation entry. */
export const areaHref = (area: (typeof ADMIN_AREAS)[number]) => (area.search ? `${area.to}?${area.search}` : area.to);
