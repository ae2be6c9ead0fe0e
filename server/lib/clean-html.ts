import sanitizeHtml from "sanitize-html";
import { embedUrl, parseVideoId } from "#domain/video.ts";
import { MEMBERS_MARKER_ATTRIBUTE } from "#domain/articles.ts";

/**
 * What a rich-text body (an article's, a newsletter's) may hold, decided on the server whatever the browser sent
 * (issue 36): the editor's own elements and nothing else. Headings from h2 (the page's title is the h1), paragraphs,
 * bold, italic, strike, inline code and code blocks, quotes, lists, links (http, https, mailto; opened in the same tab
 * unless the editor said otherwise, and never given the opener), images (from the library: a path of our own, or an
 * https address), the members-only marker, and YouTube embeds at the privacy-friendly address the banner uses.
 * Everything else is dropped, its text kept (a <script>'s or <style>'s text goes with it).
 */
const OPTIONS: sanitizeHtml.IOptions = {
  allowedTags: [
    "h2",
    "h3",
    "h4",
    "p",
    "br",
    "strong",
    "b",
    "em",
    "i",
    "s",
    "u",
    "code",
    "pre",
    "blockquote",
    "ul",
    "ol",
    "li",
    "a",
    "img",
    "hr",
    "div",
    "iframe",
  ],
  allowedAttributes: {
    a: ["href", "target", "rel"],
    img: ["src", "alt", "title", "width", "height", "data-media-id"],
    hr: [MEMBERS_MARKER_ATTRIBUTE],
    div: ["data-youtube-video"],
    iframe: ["src", "width", "height", "title", "allowfullscreen"],
    ol: ["start"],
    pre: [],
    code: ["class"],
  },
  allowedClasses: { code: [/^language-[a-z0-9+#-]+$/] },
  allowedSchemes: ["http", "https", "mailto"],
  allowedSchemesByTag: { img: ["https"] },
  allowProtocolRelative: false,
  allowedIframeHostnames: ["www.youtube-nocookie.com"],
  nonTextTags: ["script", "style", "textarea", "option", "noscript", "title", "head"],
  transformTags: {
    // The old spellings the editor accepts when pasted; stored as the editor writes them.
    b: "strong",
    i: "em",
    h1: "h2",
    h5: "h4",
    h6: "h4",
    a: (tagName, attribs) => ({
      tagName,
      attribs: {
        ...(attribs.href ? { href: attribs.href } : {}),
        ...(attribs.target === "_blank" ? { target: "_blank", rel: "noopener noreferrer" } : {}),
      },
    }),
    iframe: (tagName, attribs): sanitizeHtml.Tag => {
      const id = parseVideoId(attribs.src);
      // Any other address: no frame at all (an empty tag name is dropped with its content).
      if (!id) return { tagName: "", attribs: {} };
      return { tagName, attribs: { src: embedUrl(id), title: attribs.title || "Video", allowfullscreen: "" } };
    },
  },
  exclusiveFilter: (frame) =>
    // A library image is a path of ours (/media/…); any other image must be https (allowedSchemesByTag).
    frame.tag === "img" && !frame.attribs.src,
};

/** A body as stored: cleaned to the editor's elements (see OPTIONS). Idempotent: cleaning a cleaned body changes nothing. */
export function cleanHtml(html: string): string {
  return sanitizeHtml(html, OPTIONS).trim();
}
