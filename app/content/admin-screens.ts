import { pages, pageTypes, type PageKey } from "./pages";
import { sections, type SectionDef } from "../../domain/registry";
import type { StaffArea } from "../../domain/capabilities";

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
  { to: "/all-subscriber", label: "Subscribers", group: "Customers", area: "subscribers" },
  { to: "/setting", label: "Site content", group: "Content", area: "content" },
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
  { to: "/invoice-settings", label: "Invoice details", group: "Settings", area: "settings" },
  { to: "/background-jobs", label: "Background jobs", group: "Settings", area: "settings" },
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
  const params = new URLSearchParams(search);
  const views = ADMIN_AREAS.filter((a) => a.to === area.to && a.search);
  if (area.search) return [...new URLSearchParams(area.search)].every(([k, v]) => params.get(k) === v);
  return !views.some((v) => [...new URLSearchParams(v.search)].every(([k, val]) => params.get(k) === val));
}

/** The address of a navigation entry. */
export const areaHref = (area: (typeof ADMIN_AREAS)[number]) => (area.search ? `${area.to}?${area.search}` : area.to);

/** Paths without their trailing slash (React Router matches both forms). */
export const routePath = (p: string) => p.replace(/^\//, "").replace(/\/$/, "");

/** Sections edited on the generic content screens (the search listings have screens of their own). */
export const GENERIC_SECTIONS: readonly SectionDef[] = sections.filter((s: SectionDef) => !s.admin.own);

/** The back office's content screens: each screen path with the sections it shows, in registry order. */
export const ADMIN_SCREENS: { path: string; sections: SectionDef[] }[] = [
  ...new Set(GENERIC_SECTIONS.map((s) => s.admin.screen)),
].map((path) => ({
  path,
  sections: GENERIC_SECTIONS.filter((s) => s.admin.screen === path),
}));

/** Extra edit addresses the spec names for a section (spec 2: /main-service-edit/{id} edits a service item too). */
export const EDIT_ALIASES: { path: string; type: string }[] = [{ path: "/main-service-edit/:id", type: "serviceItem" }];

export function screenFor(pathname: string): { path: string; sections: SectionDef[] } | undefined {
  const p = routePath(pathname);
  return ADMIN_SCREENS.find((s) => routePath(s.path) === p);
}

/** The section and record id an edit address names (e.g. /banner/abc → banner, abc). */
export function editFor(pathname: string): { section: SectionDef; id: string } | undefined {
  const p = routePath(pathname);
  const candidates = [
    ...GENERIC_SECTIONS.map((s) => ({ path: s.admin.edit, section: s })),
    ...EDIT_ALIASES.map((a) => ({ path: a.path, section: sections.find((s) => s.type === a.type)! })),
  ];
  for (const c of candidates) {
    const pattern = new RegExp(`^${routePath(c.path).replace(":id", "([^/]+)")}$`);
    const m = pattern.exec(p);
    if (m) return { section: c.section, id: decodeURIComponent(m[1]!) };
  }
  return undefined;
}

/** The address of a record's edit screen (the rule lives in domain/registry.ts, which the server reads too). */
export { editHref } from "../../domain/registry";

/** The dashboard's cards (spec 2, section 2): the screens whose registry entry names one, in registry order. */
export const DASHBOARD_CARDS: { to: string; label: string }[] = ADMIN_SCREENS.flatMap((screen) =>
  screen.sections.flatMap((s) => (s.admin.card ? [{ to: screen.path, label: s.admin.card }] : [])),
);

export interface HubGroup {
  page: PageKey;
  name: string;
  /** "View on site". */
  path: string;
  /** The screens holding this page's sections, in page order, each with the titles of those sections. */
  screens: { path: string; heading: string; sections: string[] }[];
}

/** The settings hub: the content screens grouped by the public page where their sections appear. */
export const HUB_GROUPS: HubGroup[] = (Object.keys(pages) as PageKey[]).map((page) => {
  const screens: HubGroup["screens"] = [];
  for (const type of pageTypes(page)) {
    const section = sections.find((s) => s.type === type)!;
    const screen = ADMIN_SCREENS.find((x) => x.path === section.admin.screen)!;
    const card = screens.find((c) => c.path === screen.path);
    if (card) card.sections.push(section.title);
    else screens.push({ path: screen.path, heading: screen.sections[0]!.admin.heading, sections: [section.title] });
  }
  return { page, name: pages[page].name, path: pages[page].path, screens };
});
