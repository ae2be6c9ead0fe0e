import type { ContentSnapshot } from "./registry";

/** The agency's name, read from the copyright line ("© 2026 Atelier North Studio. All rights reserved."). */
export function siteName(content: Pick<ContentSnapshot, "copyright">): string {
  const text = content.copyright[0]?.copyrightText ?? "";
  const match = /^(?:©|\(c\)|copyright)?\s*(?:\d{4}\s*)?([^.|]+?)(?:\.|\||all rights|$)/i.exec(text.trim());
  const name = match?.[1]?.trim();
  const clean = name?.replace(/[,\s]+$/, "");
  return clean && clean.length <= 60 ? clean : "Interior Design & SEO Studio";
}
