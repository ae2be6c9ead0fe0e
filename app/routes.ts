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

  // For search engines
  route("sitemap.xml", "routes/seo/sitemap.ts"),
  route("robots.txt", "routes/seo/robots.ts"),

  route("*", "routes/public/not-found.tsx"),
] satisfies RouteConfig;
