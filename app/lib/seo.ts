import type { MetaDescriptor } from "react-router";

export const SITE_NAME_FALLBACK = "Interior Design & SEO Studio";

/** Title, description, canonical link and Open Graph tags for one public page. */
export function seo(options: {
  title: string;
  description: string;
  path: string;
  publicUrl: string;
  image?: string;
  siteName?: string;
}): MetaDescriptor[] {
  const url = options.publicUrl + options.path;
  const description = clip(options.description, 160);
  const image = options.image ? absolute(options.image, options.publicUrl) : undefined;
  return [
    { title: options.title },
    { name: "description", content: description },
    { tagName: "link", rel: "canonical", href: url },
    { property: "og:type", content: "website" },
    { property: "og:title", content: options.title },
    { property: "og:description", content: description },
    { property: "og:url", content: url },
    ...(options.siteName ? [{ property: "og:site_name", content: options.siteName }] : []),
    ...(image ? [{ property: "og:image", content: image }] : []),
    { name: "twitter:card", content: image ? "summary_large_image" : "summary" },
  ];
}

/** Shortens text to at most `max` characters on a word boundary. */
export function clip(text: string, max: number): string {
  const clean = text.replace(/\s+/g, " ").trim();
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  return cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2)).replace(/[\s,.;:]+$/, "") + "…";
}

export function absolute(href: string, publicUrl: string): string {
  return href.startsWith("/") ? publicUrl + href : href;
}
