import type { Route } from "./+types/sitemap";

/** Public pages worth indexing; /contact-us duplicates /contact and points to it with its canonical link. */
export const SITEMAP_PATHS = ["/", "/service/", "/pricing", "/contact", "/privacy", "/terms"] as const;

export async function loader({ context }: Route.LoaderArgs) {
  const base = context.config.publicUrl;
  const urls = SITEMAP_PATHS.map((p) => `  <url><loc>${base}${p}</loc></url>`).join("\n");
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9">\n${urls}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
