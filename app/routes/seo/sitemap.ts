import type { Route } from "./+types/sitemap";
import { allPageSeo } from "#domain/page-seo.ts";
import { siteName } from "#domain/site.ts";
import { absoluteUrl } from "#domain/structured-data.ts";
import { parseVideoId } from "#domain/video.ts";

/** Public pages worth indexing; /contact-us duplicates /contact and points to it with its canonical link. */
export const SITEMAP_PATHS = ["/", "/service/", "/pricing", "/contact", "/privacy", "/terms"] as const;

const escapeXml = (text: string) =>
  text.replace(/[<>&'"]/g, (c) => ({ "<": "&lt;", ">": "&gt;", "&": "&amp;", "'": "&apos;", '"': "&quot;" })[c]!);

/**
 * Each indexed page, with its search listing's share image (Google's image extension) when it has one; then the blog
 * (when something is published) and its articles whose text anyone may read (public ones, and those with a members'
 * part, whose public part is the page), each with its last change. A members-only article is left out: its page is an
 * excerpt and a call to join, nothing a search should send readers to.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const base = context.config.publicUrl;
  const [snapshot, articles] = await Promise.all([
    context.services.content.snapshot(),
    context.services.blog.sitemap(),
  ]);
  const listings = allPageSeo(snapshot, { siteName: siteName(snapshot), isImage: (href) => !parseVideoId(href) });
  const urls = SITEMAP_PATHS.map((p) => {
    const image = absoluteUrl(listings.find((l) => l.path === p)?.image.value, base);
    const imageXml = image ? `<image:image><image:loc>${escapeXml(image)}</image:loc></image:image>` : "";
    return `  <url><loc>${escapeXml(base + p)}</loc>${imageXml}</url>`;
  });
  if (await context.services.blog.hasPublished()) urls.push(`  <url><loc>${escapeXml(`${base}/blog`)}</loc></url>`);
  for (const a of articles) {
    const image = absoluteUrl(a.coverImage, base);
    const imageXml = image ? `<image:image><image:loc>${escapeXml(image)}</image:loc></image:image>` : "";
    urls.push(
      `  <url><loc>${escapeXml(`${base}/blog/${a.slug}`)}</loc><lastmod>${a.lastModified.toISOString()}</lastmod>${imageXml}</url>`,
    );
  }
  const xml = `<?xml version="1.0" encoding="UTF-8"?>\n<urlset xmlns="http://www.sitemaps.org/schemas/sitemap/0.9" xmlns:image="http://www.google.com/schemas/sitemap-image/1.1">\n${urls.join("\n")}\n</urlset>\n`;
  return new Response(xml, {
    headers: { "Content-Type": "application/xml; charset=utf-8", "Cache-Control": "public, max-age=3600" },
  });
}
