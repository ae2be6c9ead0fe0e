import { readFileSync } from "node:fs";
import path from "node:path";
import type { Pool } from "pg";
import { randomUUID } from "node:crypto";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "#app/routes.ts";
import { editFor } from "#app/content/admin-screens.ts";
import { pages } from "#app/content/pages.ts";
import { ROOT } from "./server";
import { STAFF_AREAS, type StaffArea } from "#domain/capabilities.ts";

/** The public pages a visitor reaches: those of app/content/pages.ts, and the account and form pages. */
export const PUBLIC_PAGES = [
  ...new Set([
    ...Object.values(pages).map((p) => p.path),
    "/contact-us",
    "/thanks",
    "/newsletter",
    "/login",
    "/register",
  ]),
];

/**
 * The back office's addresses, read from the route config (app/routes.ts), so that a page added there is visited by
 * every suite that lists the admin pages without anyone remembering to add it.
 */
const ADMIN_LAYOUT = "routes/admin/layout.tsx";

export interface AdminRoute {
  /** The address pattern, with a leading slash and without a trailing one: "/setting", "/view/:id". */
  path: string;
  /** The route module, relative to app/. */
  file: string;
  /** Its path parameters, in order: ["id"]. */
  params: string[];
  /** Whether the module renders a page (a default export), or is a resource route (a download). */
  page: boolean;
  /**
   * The area its loader's guard declares (`requireStaff(request, context, "orders")`, domain/capabilities.ts), or
   * "home" for the dashboard's guard (requireStaffHome): read from the module, so the test follows the page.
   */
  area: StaffArea | "home";
}

const join = (parent: string, child: string) =>
  "/" +
  [parent, child]
    .map((p) => p.replace(/^\/|\/$/g, ""))
    .filter(Boolean)
    .join("/");

const source = (file: string) => readFileSync(path.join(ROOT, "app", file), "utf8");
const rendersPage = (file: string) => /^export default\b/m.test(source(file));

/** The area the route's first guard declares; a back-office route without one fails here. */
function guardArea(file: string): StaffArea | "home" {
  const text = source(file);
  if (/requireStaffHome\(/.test(text)) return "home";
  const m = /requireStaff\(request, context, "(\w+)"\)/.exec(text);
  if (!m || !(STAFF_AREAS as readonly string[]).includes(m[1]!))
    throw new Error(`${file}: its loader does not declare its area with requireStaff(request, context, area)`);
  return m[1] as StaffArea;
}

/**
 * Every back-office route, in the order app/routes.ts declares them: those under the admin layout, and those of
 * app/routes/admin/ that draw a frame of their own (the preview of unsaved content, decision 074).
 */
export function adminRoutes(): AdminRoute[] {
  const found: AdminRoute[] = [];
  const walk = (entries: RouteConfigEntry[], parent: string, inAdmin: boolean) => {
    for (const entry of entries) {
      const at = entry.path === undefined ? parent : join(parent, entry.path);
      const backOffice = inAdmin || entry.file.startsWith("routes/admin/");
      if (backOffice && (entry.path !== undefined || entry.index)) {
        found.push({
          path: at,
          file: entry.file,
          params: [...at.matchAll(/:(\w+)/g)].map((m) => m[1]!),
          page: rendersPage(entry.file),
          area: guardArea(entry.file),
        });
      }
      if (entry.children) walk(entry.children, at, inAdmin || entry.file === ADMIN_LAYOUT);
    }
  };
  walk(routes, "", false);
  if (!found.length) throw new Error(`No route under ${ADMIN_LAYOUT} in app/routes.ts`);
  return found;
}

/** A value for one path parameter of a route, or undefined to leave the route out. */
export type Fill = (
  param: string,
  route: Pick<AdminRoute, "path" | "file" | "params">,
) => string | undefined | Promise<string | undefined>;

/**
 * The admin pages' addresses. A route with parameters is kept only when `fill` gives each of them a value (without
 * `fill`, only the fixed pages are listed); resource routes (the CSV downloads) only with `resources: true`.
 */
export async function adminPages(options: { fill?: Fill; resources?: boolean } = {}): Promise<string[]> {
  return (await adminPagesWithAreas(options)).map((p) => p.path);
}

/** The same addresses, each with the area its guard declares. */
export async function adminPagesWithAreas(
  options: { fill?: Fill; resources?: boolean } = {},
): Promise<{ path: string; area: AdminRoute["area"] }[]> {
  const pages: { path: string; area: AdminRoute["area"] }[] = [];
  for (const route of adminRoutes()) {
    if (!route.page && !options.resources) continue;
    let address: string | undefined = route.path;
    for (const param of route.params) {
      const value = await options.fill?.(param, route);
      if (value === undefined) {
        address = undefined;
        break;
      }
      address = address.replace(`:${param}`, encodeURIComponent(value));
    }
    if (address !== undefined) pages.push({ path: address, area: route.area });
  }
  return pages;
}

/** The file a download route serves, for the suites that fetch every back-office address. */
export function downloadOf(route: Pick<AdminRoute, "file">): string {
  return route.file === "routes/admin/report-download.ts" ? "revenue.csv" : "orders.csv";
}

/**
 * Fills each parameter with a real record of what the page shows, read from the database. A parameterised route it
 * does not know fails here, until it is taught which record that route shows, rather than being left out in silence.
 */
export function fromRecords(pool: Pool): Fill {
  return async (param, route) => {
    const first = async (table: string, where = "", values: unknown[] = []) => {
      const { rows } = await pool.query(`select id from ${table} ${where} order by created_at, id limit 1`, values);
      if (!rows[0]) throw new Error(`${route.path}: there is no record in ${table} to show`);
      return String(rows[0].id);
    };
    switch (`${route.file} :${param}`) {
      case "routes/admin/payment-status.tsx :id":
        return first("orders");
      case "routes/admin/view-message.tsx :id":
        return first("messages");
      case "routes/admin/admin-user.tsx :id":
        return first("admin_users");
      case "routes/admin/paypal-account.tsx :id":
        return first("payment_accounts");
      case "routes/admin/content-edit.tsx :id":
        return first("content_entries", "where type = $1", [editFor(route.path)!.section.type]);
      case "routes/admin/customer.tsx :id":
        return first(
          `"user"`,
          `where not exists (select 1 from admin_users a where lower(a.user_email) = lower("user".email))`,
        );
      case "routes/admin/customer-delete.tsx :id":
      case "routes/admin/customer-sale.tsx :id":
        return first(
          `"user"`,
          `where not exists (select 1 from admin_users a where lower(a.user_email) = lower("user".email))`,
        );
      case "routes/admin/search-listing.tsx :page":
        return "home";
      case "routes/admin/discount-code.tsx :id":
        return first("discount_codes");
      case "routes/admin/customers-import-one.tsx :id":
        // None in the demo content: the page is visited where a test made one.
        return first("imports").catch(() => undefined);
      case "routes/admin/newsletter.tsx :id":
        // None in the demo content: the page is visited where a test wrote one.
        return first("newsletters").catch(() => undefined);
      case "routes/admin/article-edit.tsx :id":
      case "routes/admin/blog-preview.tsx :id":
        return first("articles");
      case "routes/admin/webhook.tsx :id":
        // None in the demo content: the page is visited where a test added one.
        return first("webhook_endpoints").catch(() => undefined);
      case "routes/admin/subscription-cancel.tsx :id":
        return first("subscriptions", "where status = 'active'");
      case "routes/admin/export.ts :file":
      case "routes/admin/report-download.ts :file":
        return downloadOf(route);
      default:
        throw new Error(
          `${route.path} (${route.file}): tests/support/routes.ts does not know which record fills :${param}`,
        );
    }
  };
}

/** A route of the whole site, from app/routes.ts: who it is for by its folder, and whether it renders a page. */
export interface SiteRoute {
  path: string;
  file: string;
  params: string[];
  page: boolean;
  audience: "public" | "account" | "customer" | "admin" | "other";
}

/** Every route of app/routes.ts (pages and resource routes, the back office's too), in the order it declares them. */
export function siteRoutes(): SiteRoute[] {
  const found: SiteRoute[] = [];
  const walk = (entries: RouteConfigEntry[], parent: string) => {
    for (const entry of entries) {
      const at = entry.path === undefined ? parent : join(parent, entry.path);
      if (entry.path !== undefined || entry.index) {
        // The blog's pages (issue 36) are public pages of a folder of their own; its feed is a file for everyone, as
        // the search engines' are.
        const inFolder = /^routes\/(public|account|customer|admin|blog)\//.exec(entry.file)?.[1];
        const folder = inFolder === "blog" ? (rendersPage(entry.file) ? "public" : undefined) : inFolder;
        found.push({
          path: at || "/",
          file: entry.file,
          params: [...at.matchAll(/:(\w+)/g)].map((m) => m[1]!),
          page: rendersPage(entry.file),
          audience: (folder as SiteRoute["audience"] | undefined) ?? "other",
        });
      }
      if (entry.children) walk(entry.children, at);
    }
  };
  walk(routes, "");
  return found;
}

/**
 * The addresses of every route of the site: a parameter filled by `fill` (a route it gives no value for is left out),
 * the catch-all as an unknown address.
 */
export async function siteAddresses(
  fill: Fill,
  options: { resources?: boolean } = {},
): Promise<(SiteRoute & { address: string })[]> {
  const out: (SiteRoute & { address: string })[] = [];
  for (const route of siteRoutes()) {
    if (!route.page && !options.resources) continue;
    if (route.path === "/*") {
      out.push({ ...route, address: "/no-such-page" });
      continue;
    }
    let address: string | undefined = route.path;
    for (const param of route.params) {
      const value = await fill(param, route);
      if (value === undefined) {
        address = undefined;
        break;
      }
      address = address.replace(`:${param}`, encodeURIComponent(value));
    }
    if (address !== undefined) out.push({ ...route, address });
  }
  return out;
}

/** The records of one customer that the customer pages show: a package, a paid and an unpaid order, an item. */
export interface CustomerRecords {
  package: string;
  paid: string;
  paidNumber: string;
  unpaid: string;
  item: string;
}

/**
 * Fills every route's parameters: the customer pages' from the customer's records, the back office's from the database
 * (fromRecords); a back-office record the test did not make (a discount code) is a random id, whose "not found" page
 * is still an answer. A customer route it does not know fails here.
 */
export function siteRecords(pool: Pool, ids: CustomerRecords): Fill {
  const admin = fromRecords(pool);
  return async (param, route) => {
    switch (`${route.file} :${param}`) {
      case "routes/customer/order-now.tsx :id":
        return ids.package;
      case "routes/customer/pay-now.tsx :id":
      case "routes/customer/order-cancelled.tsx :id":
        return ids.unpaid;
      case "routes/customer/received-payment.tsx :id":
        return ids.paid;
      case "routes/customer/item.tsx :id":
        return ids.item;
      case "routes/invoice.tsx :orderNumber":
      case "routes/invoice-pdf.tsx :orderNumber":
        return ids.paidNumber;
      // The paid order's credit note (decision 073) when it was refunded; else a number no note has (its "not found").
      case "routes/credit-note.tsx :number":
      case "routes/credit-note-pdf.tsx :number": {
        const { rows } = await pool.query("select number from credit_notes where order_id = $1 order by number", [
          ids.paid,
        ]);
        return String(rows[0]?.number ?? "CN-2000-00001");
      }
      // The blog: a published article and one of its tags (else an address with none: its "not found").
      case "routes/blog/article.tsx :slug":
      case "routes/blog/tag.tsx :slug": {
        const { rows } = await pool.query(
          "select slug, tag_slugs from articles where state = 'published' order by published_at desc, id limit 1",
        );
        const article = rows[0] as { slug: string; tag_slugs: string[] } | undefined;
        return route.file === "routes/blog/tag.tsx"
          ? (article?.tag_slugs[0] ?? "no-such-tag")
          : (article?.slug ?? "no-such-article");
      }
      case "routes/public/newsletter-confirm.tsx :token":
      case "routes/public/newsletter-unsubscribe.tsx :token":
        return "not-a-token";
    }
    if (!route.file.startsWith("routes/admin/"))
      throw new Error(`${route.path} (${route.file}): siteRecords does not know which record fills :${param}`);
    return Promise.resolve(admin(param, route)).catch(() => randomUUID());
  };
}

/** Pages of the customer's area that a link or an erasure leads to, not its menus: customerPages() leaves them out. */
const REACHED_BY_A_LINK = new Set(["/account/email-confirmed", "/account/deleted"]);

/**
 * The signed-in customer's pages without parameters, read from app/routes.ts (the customer area, and the account pages
 * under /account), so that a page added there is checked by every suite that lists them.
 */
export function customerPages(): string[] {
  return siteRoutes()
    .filter((r) => r.page && r.params.length === 0)
    .filter((r) => r.audience === "customer" || (r.audience === "account" && /^\/account(\/|$)/.test(r.path)))
    .map((r) => r.path)
    .filter((p) => !REACHED_BY_A_LINK.has(p));
}
