import { parseVideoId, watchUrl } from "#domain/video.ts";

/** A YouTube frame as the server's cleaning stores it (server/lib/clean-html.ts): src, title, allowfullscreen. */
const FRAME = /<iframe\b([^>]*)>\s*<\/iframe>/gi;
const attribute = (attributes: string, name: string) => new RegExp(`\\b${name}="([^"]*)"`, "i").exec(attributes)?.[1];

/**
 * A cleaned article body made light for the public page (issue 36, part 3): each YouTube frame becomes a link to the
 * video on YouTube with a play mark (no third-party player, script or cookie loads until the reader asks: the
 * page keeps its Lighthouse scores, as the banner's video does), and every image loads lazily and asynchronously.
 * The attributes reused are the cleaned body's own, already escaped.
 */
export function lightArticleHtml(html: string): string {
  return html
    .replace(FRAME, (_frame, attributes: string) => {
      const id = parseVideoId(attribute(attributes, "src")?.replace(/&amp;/g, "&"));
      if (!id) return "";
      const title = attribute(attributes, "title") || "Video";
      return (
        `<a class="article-video" href="${watchUrl(id)}" target="_blank" rel="noopener noreferrer">` +
        `<span class="article-video-play" aria-hidden="true"></span>` +
        `<span>Watch “${title}” on YouTube<span class="sr-only"> (opens in a new tab)</span></span></a>`
      );
    })
    .replace(/<img\b(?![^>]*\bloading=)/gi, '<img loading="lazy" decoding="async"');
}
