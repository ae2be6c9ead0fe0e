import { index, route, type RouteConfig } from "@react-router/dev/routes";

export default [
  // Public marketing site (spec 1, section 2)
  index("routes/public/home.tsx"),
  route("service", "routes/public/service.tsx"),
  route("pricing", "routes/public/pricing.tsx"),
  route("contact", "routes/public/contact.tsx", { id: "contact" }),
  route("contact-us", "routes/public/contact.tsx", { id: "contact-us" }),
  route("thanks", "routes/public/thanks.tsx"),
  route("newsletter", "routes/public/newsletter.tsx"),

  // Accounts (spec 1, sections 2 and 5)
  route("login", "routes/account/login.tsx"),
  route("register", "routes/account/register.tsx"),
  route("reset", "routes/account/reset.tsx"),
  route("reset-password", "routes/account/reset-password.tsx"),
  route("logout", "routes/account/logout.tsx"),

  // Customers (each loader starts with requireUser)
  route("dashboard", "routes/customer/dashboard.tsx"),
  route("my-order", "routes/customer/my-order.tsx"),
  route("order-now/:id", "routes/customer/order-now.tsx"),
  route("pending-order", "routes/customer/pending-order.tsx"),
  route("pay-now/:id", "routes/customer/pay-now.tsx"),
  route("received-payment/:id", "routes/customer/received-payment.tsx"),
  route("order-cancelled/:id", "routes/customer/order-cancelled.tsx"),
  route("item/:id", "routes/customer/item.tsx"),

  // Administrators (each loader starts with requireAdmin)
  route("admin", "routes/admin/home.tsx"),
  route("items-management", "routes/admin/items-management.tsx"),
  route("add-item", "routes/admin/add-item.tsx"),

  // The built-in stand-in for PayPal's checkout (PAYPAL_MODE=simulator)
  route("paypal-simulator", "routes/public/paypal-simulator.tsx"),

  // For search engines
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),

  route("*", "routes/public/not-found.tsx"),
] satisfies RouteConfig;
