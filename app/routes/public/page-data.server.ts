import type { AppLoadContext } from "react-router";
import { pickContent, type PageKey } from "#app/content/pages.ts";
import { pageSeo, type SeoPage } from "#domain/page-seo.ts";
import type { ContentSnapshot } from "#domain/registry.ts";
import { siteName } from "#domain/site.ts";
import { parseVideoId } from "#domain/video.ts";

/** A page's search listing (title, description, share image): the studio's, else its content's defaults. */
const seoOf = (snapshot: ContentSnapshot, page: SeoPage) =>
  pageSeo(page, snapshot, { siteName: siteName(snapshot), isImage: (href) => !parseVideoId(href) });

/** A public page's data: its sections from the content snapshot, and the library images they draw (no query after the first). */
export async function publicPage<P extends PageKey & SeoPage>(context: AppLoadContext, page: P) {
  const snapshot = await context.services.content.snapshot();
  const content = pickContent(snapshot, page);
  return { content, media: await context.services.media.describe(content), seo: seoOf(snapshot, page) };
}

/** The listing of a public page that shows no content sections (the thank-you page). */
export async function publicSeo(context: AppLoadContext, page: SeoPage) {
  return { seo: seoOf(await context.services.content.snapshot(), page) };
}
