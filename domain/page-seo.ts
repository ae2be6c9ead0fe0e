/**
 * Search listings (issue 28): each public page's title, meta description and share image. The studio may write them in
 * the back office (the registry's seo* singletons); a field left empty takes its default from the page's own content.
 * Pure functions shared by the public pages' loaders, the sitemap, the JSON-LD and the back office's preview.
 * docs/decisions/047-search-listings.md tells why custom titles are used as typed and defaults carry the site's name.
 */
import type { ContentSnapshot, SectionRecord } from "./registry";

/** The public pages with a search listing: their record's section type, what the studio calls them, where they are. */
export const SEO_PAGES = {
  home: { type: "seoHome", name: "Home", path: "/" },
  service: { type: "seoService", name: "Service page", path: "/service/" },
  pricing: { type: "seoPricing", name: "Pricing page", path: "/pricing" },
  contact: { type: "seoContact", name: "Contact page", path: "/contact" },
  thanks: { type: "seoThanks", name: "Thank-you page", path: "/thanks" },
  privacy: { type: "seoPrivacy", name: "Privacy notice", path: "/privacy" },
  terms: { type: "seoTerms", name: "Terms", path: "/terms" },
} as const;

export type SeoPage = keyof typeof SEO_PAGES;
export type SeoType = (typeof SEO_PAGES)[SeoPage]["type"];
export const SEO_PAGE_KEYS = Object.keys(SEO_PAGES) as SeoPage[];
export const isSeoPage = (value: string): value is SeoPage => Object.hasOwn(SEO_PAGES, value);

/** What search results show of a title and a description before they cut it (Google, in characters, roughly). */
export const TITLE_LENGTH = { min: 30, max: 60 } as const;
export const DESCRIPTION_LENGTH = { min: 120, max: 155 } as const;

/** The content a page's defaults are read from: the sections its listing draws on (any may be missing). */
export type SeoContent = Partial<ContentSnapshot>;

/** What one field of a listing says: the text used, and whether the studio wrote it (otherwise it is the default). */
export interface SeoValue {
  value: string;
  custom: boolean;
}

/** A page's listing as the page uses it: title, description and share image (an address, or none). */
export interface PageSeo {
  page: SeoPage;
  path: string;
  title: SeoValue;
  description: SeoValue;
  image: SeoValue;
}

const SVG = /\.svg(?:[?#]|$)/i;

const oneLine = (text: string | undefined) => (text ?? "").replace(/\s+/g, " ").trim();

/** Shortens text to at most `max` characters on a word boundary, with an ellipsis. */
export function clip(text: string, max: number): string {
  const clean = oneLine(text);
  if (clean.length <= max) return clean;
  const cut = clean.slice(0, max - 1);
  return cut.slice(0, Math.max(cut.lastIndexOf(" "), max / 2)).replace(/[\s,.;:]+$/, "") + "…";
}

/** The first paragraph of a document that reads as a sentence (a short line on its own is a heading, decision 037). */
function firstParagraph(text: string | undefined): string {
  const paragraphs = (text ?? "").split(/\n\s*\n/).map(oneLine);
  return paragraphs.find((p) => p.length >= 60) ?? "";
}

/** A page's defaults from its content: the name it goes by (without the site's name), a description and an image. */
function defaults(
  page: SeoPage,
  content: SeoContent,
  isImage: (href: string) => boolean,
): { title: string; description: string; image: string } {
  // Social networks show no SVG on a shared card: a drawing is no default share image.
  const image = (href: string | undefined) => (href && isImage(href) && !SVG.test(href) ? href : "");
  switch (page) {
    case "home": {
      const banner = content.banner?.[0];
      return {
        title: oneLine(banner?.bannerHeading) || "Interior design and SEO",
        description: oneLine(banner?.bannerDetails) || "Interior design and search engine optimisation studio.",
        image: image(banner?.bannerImage),
      };
    }
    case "service": {
      const heading = content.serviceHeading?.[0];
      const pictured = content.serviceItem?.find((s) => s.serviceImg && image(s.serviceImg));
      return {
        title: oneLine(heading?.serviceHeading) || "Our services",
        description:
          oneLine(heading?.servicesubHeading) || "Interior design, styling and search engine optimisation services.",
        image: image(pictured?.serviceImg),
      };
    }
    case "pricing": {
      const plans = (content.pricing ?? []).map((p) => `${oneLine(p.packageName)} $${p.packagePrice}`);
      return {
        title: "Pricing",
        description: plans.length
          ? `Membership plans: ${plans.join(", ")}. Cold-email generators, design and SEO support.`
          : "Membership plans: cold-email generators, design and SEO support.",
        image: "",
      };
    }
    case "contact":
      return {
        title: "Contact Us",
        description:
          "Send the studio a message about your interior or your search rankings; we answer within one working day.",
        image: "",
      };
    case "thanks":
      return { title: "Thank You", description: "Thank you: check your inbox.", image: "" };
    case "privacy":
    case "terms": {
      const document = content[page]?.[0];
      return {
        title: oneLine(document?.documentHeading) || (page === "privacy" ? "Privacy notice" : "Terms"),
        description:
          firstParagraph(document?.documentText) ||
          (page === "privacy"
            ? "How we collect, use and keep your personal information, and your rights."
            : "The terms of your account and membership: payment, cancellation, refunds and using the templates."),
        image: "",
      };
    }
  }
}

/**
 * A page's listing: what the studio wrote, field by field, else the default from the content. A default title carries
 * the site's name ("Pricing | Atelier North Studio"), a written one is used as typed; a default description is cut to
 * what results show. A page with no image of its own shares the home page's.
 */
export function pageSeo(
  page: SeoPage,
  content: SeoContent,
  {
    siteName,
    isImage = () => true,
  }: {
    siteName: string;
    /** Whether an address is an image (the banner's may be a video link). */
    isImage?: (href: string) => boolean;
  },
): PageSeo {
  const record = content[SEO_PAGES[page].type]?.[0] as SectionRecord<SeoType> | undefined;
  const base = defaults(page, content, isImage);
  const title = oneLine(record?.seoTitle);
  const description = oneLine(record?.seoDescription);
  const image = record?.shareImage?.trim() ?? "";
  const fallbackImage = () => {
    if (base.image || page === "home") return base.image;
    const home = pageSeo("home", content, { siteName, isImage });
    return home.image.value;
  };
  return {
    page,
    path: SEO_PAGES[page].path,
    title: title
      ? { value: title, custom: true }
      : { value: base.title.includes(siteName) ? base.title : `${base.title} | ${siteName}`, custom: false },
    description: description
      ? { value: description, custom: true }
      : { value: clip(base.description, DESCRIPTION_LENGTH.max + 5), custom: false },
    image: image ? { value: image, custom: true } : { value: fallbackImage(), custom: false },
  };
}

/** Every page's listing (the sitemap and the back office's overview). */
export function allPageSeo(content: SeoContent, options: Parameters<typeof pageSeo>[2]): PageSeo[] {
  return SEO_PAGE_KEYS.map((page) => pageSeo(page, content, options));
}

export type LengthVerdict = "default" | "short" | "good" | "long";

/** What a length hint says: a verdict (for its colour) and a sentence saying what to do. */
export interface LengthHint {
  verdict: LengthVerdict;
  text: string;
}

const chars = (n: number) => (n === 1 ? "1 character" : `${n} characters`);

function lengthHint(
  typed: string,
  { min, max }: { min: number; max: number },
  { what, shortAdvice }: { what: string; shortAdvice: string },
): LengthHint {
  const n = oneLine(typed).length;
  if (n === 0) return { verdict: "default", text: `Empty: the page's own ${what} is used. Type one to choose yours.` };
  if (n > max)
    return {
      verdict: "long",
      text: `${chars(n)}: search results cut ${what}s after about ${max}. Shorten it by ${n - max}.`,
    };
  if (n < min)
    return { verdict: "short", text: `${chars(n)}: ${shortAdvice} Aim for ${min} to ${max} (${min - n} more).` };
  return { verdict: "good", text: `${chars(n)}: a good length (${min} to ${max}).` };
}

/** The title's hint: about 60 characters show in results. */
export const titleHint = (typed: string) =>
  lengthHint(typed, TITLE_LENGTH, {
    what: "title",
    shortAdvice: "room for a few words on what the page offers.",
  });

/** The description's hint: about 155 characters show in results; a short one is often replaced by the search engine. */
export const descriptionHint = (typed: string) =>
  lengthHint(typed, DESCRIPTION_LENGTH, {
    what: "description",
    shortAdvice: "search engines often replace a short description with text of their own.",
  });

/** A search result as the back office previews it: the title and description cut where results cut them. */
export function searchPreview(seo: Pick<PageSeo, "title" | "description">, url: string) {
  return {
    title: clip(seo.title.value, TITLE_LENGTH.max),
    description: clip(seo.description.value, DESCRIPTION_LENGTH.max),
    url: url.replace(/^https?:\/\//, "").replace(/\/$/, ""),
  };
}
