import { index, layout, route, type RouteConfig } from "@react-router/dev/routes";
import { ADMIN_SCREENS, EDIT_ALIASES, GENERIC_SECTIONS, routePath } from "./content/admin-screens";

const routes = [
  // Public marketing site (spec 1, section 2)
  index("routes/public/home.tsx"),
  route("service", "routes/public/service.tsx"),
  route("pricing", "routes/public/pricing.tsx"),
  route("contact", "routes/public/contact.tsx", { id: "contact" }),
  route("contact-us", "routes/public/contact.tsx", { id: "contact-us" }),
  route("thanks", "routes/public/thanks.tsx"),
  route("privacy", "routes/public/privacy.tsx"),
  route("terms", "routes/public/terms.tsx"),
  route("newsletter", "routes/public/newsletter.tsx"),
  route("newsletter/confirm/:token", "routes/public/newsletter-confirm.tsx"),
  route("newsletter/unsubscribe/:token", "routes/public/newsletter-unsubscribe.tsx"),
  // The blog (issue 36): published articles, by tag, one article (an old slug: 301), the feed, and the staff preview
  // of any article drawn by the same components (area "content").
  route("blog", "routes/blog/index.tsx"),
  route("blog/tag/:slug", "routes/blog/tag.tsx"),
  route("blog/rss.xml", "routes/blog/rss.ts"),
  route("blog/preview/:id", "routes/admin/blog-preview.tsx"),
  route("blog/:slug", "routes/blog/article.tsx"),

  // Accounts (spec 1, sections 2 and 5)
  route("login", "routes/account/login.tsx"),
  route("login/two-factor", "routes/account/login-two-factor.tsx"),
  route("register", "routes/account/register.tsx"),
  route("reset", "routes/account/reset.tsx"),
  route("reset-password", "routes/account/reset-password.tsx"),
  route("logout", "routes/account/logout.tsx"),
  // My account (issue 25): its pages share one frame and sub-navigation (routes/account/sections.ts)
  layout("routes/account/layout.tsx", [
    route("account", "routes/account/profile.tsx"),
    route("account/password", "routes/account/password.tsx"),
    route("account/sessions", "routes/account/sessions.tsx"),
    route("account/security", "routes/account/security.tsx"),
    route("account/subscriptions", "routes/account/subscriptions.tsx"),
    route("account/data", "routes/account/data.tsx"),
    route("account/delete", "routes/account/delete.tsx"),
  ]),
  route("account/email-confirmed", "routes/account/email-confirmed.tsx"),
  route("account/data/download", "routes/account/data-download.ts"),
  route("account/deleted", "routes/account/deleted.tsx"),
  // A staff invitation's page: the back office's frame and words, for someone not signed in yet (issue 33, item 14).
  route("staff/welcome", "routes/staff/welcome.tsx"),

  // Customers (each loader starts with requireUser)
  route("dashboard", "routes/customer/dashboard.tsx"),
  route("my-order", "routes/customer/my-order.tsx"),
  route("order-now/:id", "routes/customer/order-now.tsx"),
  route("pending-order", "routes/customer/pending-order.tsx"),
  route("pay-now/:id", "routes/customer/pay-now.tsx"),
  route("received-payment/:id", "routes/customer/received-payment.tsx"),
  route("order-cancelled/:id", "routes/customer/order-cancelled.tsx"),
  route("item/:id", "routes/customer/item.tsx"),
  // Invoices (decision 038): for the customer and for staff who see orders, outside the back office's layout.
  // The PDF's path ends in ".pdf" after the number: a segment React Router ranks above the page's.
  route("invoice/:orderNumber.pdf", "routes/invoice-pdf.tsx"),
  route("invoice/:orderNumber", "routes/invoice.tsx"),
  route("credit-note/:number.pdf", "routes/credit-note-pdf.tsx"),
  route("credit-note/:number", "routes/credit-note.tsx"),

  // Administrators: every route of spec 2, section 2, in one layout; each loader and action starts with requireStaff(request, context, its area).
  layout("routes/admin/layout.tsx", [
    route("today", "routes/admin/today.tsx"),
    route("admin", "routes/admin/home.tsx"),
    route("setting", "routes/admin/setting.tsx"),
    route("total-orders", "routes/admin/total-orders.tsx"),
    route("admin/payment-status/:id", "routes/admin/payment-status.tsx"),
    route("discount-codes", "routes/admin/discount-codes.tsx"),
    // The blog's articles (issue 36): the list, a new one, one with its history.
    route("articles", "routes/admin/articles.tsx"),
    route("articles/new", "routes/admin/article-new.tsx"),
    route("articles/:id", "routes/admin/article-edit.tsx"),
    route("discount-codes/:id", "routes/admin/discount-code.tsx"),
    route("all-messages", "routes/admin/all-messages.tsx"),
    route("view/:id", "routes/admin/view-message.tsx"),
    route("all-subscriber", "routes/admin/all-subscriber.tsx"),
    // Newsletters and the suppression list (issue 36): the subscribers area.
    route("newsletters", "routes/admin/newsletters.tsx"),
    route("newsletters/new", "routes/admin/newsletter-new.tsx"),
    route("newsletters/:id", "routes/admin/newsletter.tsx"),
    route("suppressions", "routes/admin/suppressions.tsx"),
    route("add-user", "routes/admin/add-user.tsx"),
    route("admin-user/:id", "routes/admin/admin-user.tsx"),
    route("customers", "routes/admin/customers.tsx"),
    route("customers.csv", "routes/admin/customers-csv.ts"),
    // Member imports from CSV (issue 37 part 3, decision 079).
    route("customers/import", "routes/admin/customers-import.tsx"),
    route("customers/import/:id", "routes/admin/customers-import-one.tsx"),
    route("customers/:id", "routes/admin/customer.tsx"),
    route("customers/:id/delete", "routes/admin/customer-delete.tsx"),
    route("customers/:id/sale", "routes/admin/customer-sale.tsx"),
    route("add-paypal-Email", "routes/admin/paypal-accounts.tsx"),
    route("subscriptions/:id/cancel", "routes/admin/subscription-cancel.tsx"),
    route("paypal-email/:id", "routes/admin/paypal-account.tsx"),
    route("activity", "routes/admin/activity.tsx"),
    route("trash", "routes/admin/trash.tsx"),
    route("mail-settings", "routes/admin/mail-settings.tsx"),
    route("invoice-settings", "routes/admin/invoice-settings.tsx"),
    route("money-settings", "routes/admin/money-settings.tsx"),
    route("background-jobs", "routes/admin/background-jobs.tsx"),
    // API keys (issue 37, decision 077): Admins only (area settings).
    route("api-keys", "routes/admin/api-keys.tsx"),
    // Outgoing webhooks (issue 37 part 2): the Admin's settings area.
    route("webhooks", "routes/admin/webhooks.tsx"),
    route("webhooks/:id", "routes/admin/webhook.tsx"),
    route("backups", "routes/admin/backups.tsx"),
    route("backups/:name", "routes/admin/backup-download.ts"),
    route("media-library", "routes/admin/media-library.tsx"),
    route("items-management", "routes/admin/items-management.tsx"),
    route("add-item", "routes/admin/add-item.tsx"),
    route("admin/export/:file", "routes/admin/export.ts"),
    route("reports", "routes/admin/reports.tsx"),
    route("reports/tax", "routes/admin/tax-report.tsx"),
    route("reports/:file", "routes/admin/report-download.ts"),
    // Search listings: each public page's title, description and share image (domain/page-seo.ts).
    route("search-listings", "routes/admin/search-listings.tsx"),
    route("search-listings/:page", "routes/admin/search-listing.tsx"),
    // Content screens and edit screens, generated from the content registry.
    ...ADMIN_SCREENS.map((screen) =>
      route(routePath(screen.path), "routes/admin/content-screen.tsx", {
        id: `admin-screen:${routePath(screen.path)}`,
      }),
    ),
    ...[...GENERIC_SECTIONS.map((s) => s.admin.edit), ...EDIT_ALIASES.map((a) => a.path)].map((path) =>
      route(routePath(path), "routes/admin/content-edit.tsx", { id: `admin-edit:${routePath(path)}` }),
    ),
  ]),

  // The public page with a content form's unsaved change, for staff of the content area (decision 074). It draws the
  // site's frame itself, with the unsaved logo or footer when that is the change.
  route("preview", "routes/admin/preview.tsx"),

  // The built-in stand-in for PayPal's checkout (PAYPAL_MODE=simulator)
  route("paypal-simulator", "routes/public/paypal-simulator.tsx"),
  route("paypal-simulator/checkoutnow", "routes/public/paypal-checkout.tsx"),
  route("paypal-simulator/webapps/billing/subscriptions", "routes/public/paypal-subscription.tsx"),

  // For search engines
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),

  route("*", "routes/public/not-found.tsx"),
] satisfies RouteConfig;

/**
 * The site's frame (header, footer) is a pathless layout around every page but the back office's, which draws its own:
 * the back office's scripts carry neither (decision 055). Paths and route ids are unchanged.
 */
const OWN_FRAME = new Set(["routes/admin/layout.tsx", "routes/staff/welcome.tsx", "routes/admin/preview.tsx"]);
export default [
  layout(
    "routes/site-frame.tsx",
    routes.filter((r) => !OWN_FRAME.has(r.file)),
  ),
  ...routes.filter((r) => OWN_FRAME.has(r.file)),
] satisfies RouteConfig;
