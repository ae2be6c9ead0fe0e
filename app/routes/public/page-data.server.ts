import type { AppLoadContext } from "react-router";
import { pickContent, type PageKey } from "../../content/pages";

/** A public page's data: its sections from the content snapshot, and the library images they draw (no query after the first). */
export async function publicPage<P extends PageKey>(context: AppLoadContext, page: P) {
  const content = pickContent(await context.services.content.snapshot(), page);
  return { content, media: await context.services.media.describe(content) };
}
