import type { Route } from "./+types/robots";

/** Areas that need an account are not for crawlers. */
const PRIVATE = [
  "/api/",
  "/admin",
  "/dashboard",
  "/my-order",
  "/pending-order",
  "/order-now/",
  "/pay-now/",
  "/item/",
  "/newsletter",
];

export function loader({ context }: Route.LoaderArgs) {
  const body = [
    "User-agent: *",
    "Allow: /",
    ...PRIVATE.map((p) => `Disallow: ${p}`),
    "",
    `Sitemap: ${context.config.publicUrl}/sitemap.xml`,
    "",
  ].join("\n");
  return new Response(body, {
    headers: { "Content-Type": "text/plain; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
