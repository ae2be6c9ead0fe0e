/**
 * Structured data for search engines (schema.org in JSON-LD), built from the site's content: the agency as a
 * LocalBusiness (the footer's address, phone and email, the logo, the social links), its membership plans as Offers,
 * and the FAQ as an FAQPage. Pure functions of the content records; shared by server and browser, so no zod and no
 * server-only imports here. docs/decisions/027-lighthouse-and-search.md tells why each shape was chosen.
 */
import { PACKAGE_POINTS, type SectionRecord } from "./registry";

/** The currency every price of the site is in (PayPal is asked for USD, domain/format.ts prints it). */
export const PRICE_CURRENCY = "USD";

const CONTEXT = "https://schema.org";

export interface PostalAddress {
  "@type": "PostalAddress";
  /** The footer's address is one free text (street, town, postcode, country as the studio writes it). */
  streetAddress: string;
}

export interface LocalBusiness {
  "@context": typeof CONTEXT;
  "@type": "LocalBusiness";
  "@id": string;
  name: string;
  url: string;
  logo?: string;
  image?: string;
  address?: PostalAddress;
  telephone?: string;
  email?: string;
  sameAs?: string[];
}

export interface QuantitativeValue {
  "@type": "QuantitativeValue";
  value: number;
  /** UN/CEFACT common code: DAY. */
  unitCode: "DAY";
}

export interface Offer {
  "@type": "Offer";
  name: string;
  /** Decimal with a dot and two places ("49.00"), as schema.org asks. */
  price: string;
  priceCurrency: string;
  /** How long the membership bought lasts (the plan's validity in days). */
  eligibleDuration: QuantitativeValue;
  description?: string;
  url: string;
  availability: "https://schema.org/InStock";
  seller: { "@id": string };
}

export interface OfferCatalog {
  "@context": typeof CONTEXT;
  "@type": "OfferCatalog";
  name: string;
  url: string;
  itemListElement: Offer[];
}

export interface FaqPage {
  "@context": typeof CONTEXT;
  "@type": "FAQPage";
  mainEntity: {
    "@type": "Question";
    name: string;
    acceptedAnswer: { "@type": "Answer"; text: string };
  }[];
}

export interface WebPage {
  "@context": typeof CONTEXT;
  "@type": "WebPage";
  "@id": string;
  url: string;
  name: string;
  description?: string;
  primaryImageOfPage?: { "@type": "ImageObject"; url: string };
}

/** An article of the blog (issue 36): Google's Article rich result reads headline, image, dates and author. */
export interface BlogPosting {
  "@context": typeof CONTEXT;
  "@type": "BlogPosting";
  "@id": string;
  mainEntityOfPage: string;
  url: string;
  headline: string;
  description?: string;
  image?: string[];
  datePublished?: string;
  dateModified: string;
  author?: { "@type": "Person"; name: string };
  publisher: { "@id": string };
  keywords?: string;
  /** A members-only part: marked as such, as Google asks of paywalled content (the `.article-locked` part). */
  isAccessibleForFree?: boolean;
  hasPart?: { "@type": "WebPageElement"; isAccessibleForFree: false; cssSelector: string };
}

export type StructuredData = LocalBusiness | OfferCatalog | FaqPage | WebPage | BlogPosting;

/** An absolute http(s) address: site-relative paths are joined to the public URL; anything else is left out. */
export function absoluteUrl(href: string | undefined, publicUrl: string): string | undefined {
  const value = href?.trim();
  if (!value) return undefined;
  try {
    const url = new URL(value, publicUrl.endsWith("/") ? publicUrl : `${publicUrl}/`);
    if (url.protocol !== "https:" && url.protocol !== "http:") return undefined;
    // A bare in-page anchor ("#") names no other page.
    if (value.startsWith("#")) return undefined;
    return url.href;
  } catch {
    return undefined;
  }
}

/** The id every other item refers to the agency by: its home page with a fragment. */
export const businessId = (publicUrl: string) => `${absoluteUrl("/", publicUrl)}#business`;

/** The agency: a LocalBusiness named as the site, with what the footer and header show. */
export function localBusiness({
  siteName,
  publicUrl,
  logo,
  address,
  social,
}: {
  siteName: string;
  publicUrl: string;
  logo?: SectionRecord<"logo">;
  address?: SectionRecord<"footerAddress">;
  social?: SectionRecord<"footerSocial">;
}): LocalBusiness {
  const logoUrl = absoluteUrl(logo?.logo, publicUrl);
  const sameAs = [social?.fblink, social?.inslink]
    .map((link) => absoluteUrl(link, publicUrl))
    .filter((link): link is string => link !== undefined && !link.startsWith(absoluteUrl("/", publicUrl)!));
  const location = address?.Location.trim();
  const phone = address?.Phone.trim();
  const email = address?.footerEmail.trim();
  return {
    "@context": CONTEXT,
    "@type": "LocalBusiness",
    "@id": businessId(publicUrl),
    name: siteName,
    url: absoluteUrl("/", publicUrl)!,
    ...(logoUrl ? { logo: logoUrl, image: logoUrl } : {}),
    ...(location ? { address: { "@type": "PostalAddress", streetAddress: location } } : {}),
    ...(phone ? { telephone: phone } : {}),
    ...(email ? { email } : {}),
    ...(sameAs.length ? { sameAs } : {}),
  };
}

/** The membership plans: one Offer each (price, currency, validity in days), sold by the agency. */
export function planOffers({
  plans,
  publicUrl,
  currency = PRICE_CURRENCY,
}: {
  plans: readonly SectionRecord<"pricing">[];
  publicUrl: string;
  currency?: string;
}): OfferCatalog {
  const url = absoluteUrl("/pricing", publicUrl)!;
  return {
    "@context": CONTEXT,
    "@type": "OfferCatalog",
    name: "Membership plans",
    url,
    itemListElement: plans.map((plan) => {
      const points = PACKAGE_POINTS.map((f) => plan[f]?.trim()).filter((p): p is string => Boolean(p));
      return {
        "@type": "Offer",
        name: plan.packageName,
        price: Number(plan.packagePrice).toFixed(2),
        priceCurrency: currency,
        eligibleDuration: { "@type": "QuantitativeValue", value: plan.packageValidity, unitCode: "DAY" },
        ...(points.length ? { description: points.join(". ") } : {}),
        url,
        availability: "https://schema.org/InStock",
        seller: { "@id": businessId(publicUrl) },
      };
    }),
  };
}

/** The FAQ: each item a Question with its accepted Answer; nothing when there is no item (an empty FAQPage is invalid). */
export function faqPage(items: readonly SectionRecord<"faqItem">[]): FaqPage | undefined {
  const questions = items.filter((i) => i.accodingTitle.trim() && i.accodingText.trim());
  if (!questions.length) return undefined;
  return {
    "@context": CONTEXT,
    "@type": "FAQPage",
    mainEntity: questions.map((i) => ({
      "@type": "Question",
      name: i.accodingTitle.trim(),
      acceptedAnswer: { "@type": "Answer", text: i.accodingText.trim() },
    })),
  };
}

/**
 * The page itself, as its search listing names it (domain/page-seo.ts): the title and description the studio wrote (or
 * their defaults) and its share image, so that what search engines read matches the page's meta tags.
 */
export function webPage({
  path,
  title,
  description,
  image,
  publicUrl,
}: {
  path: string;
  title: string;
  description: string;
  image?: string;
  publicUrl: string;
}): WebPage {
  const url = absoluteUrl(path, publicUrl)!;
  const imageUrl = absoluteUrl(image, publicUrl);
  return {
    "@context": CONTEXT,
    "@type": "WebPage",
    "@id": `${url}#webpage`,
    url,
    name: title,
    ...(description.trim() ? { description: description.trim() } : {}),
    ...(imageUrl ? { primaryImageOfPage: { "@type": "ImageObject", url: imageUrl } } : {}),
  };
}

/**
 * An article as a BlogPosting: its headline (at most 110 characters, Google's limit), description, image, dates,
 * author and publisher (the agency). An article whose text is partly or wholly for members says it is not free and
 * names the members' part by the selector of the call to action that replaces it, as Google's guidance for
 * subscription content asks (so the difference between what its crawler and a visitor see is not taken for cloaking).
 */
export function blogPosting({
  path,
  title,
  description,
  image,
  publishedAt,
  updatedAt,
  authorName,
  tags,
  membersOnly,
  publicUrl,
}: {
  path: string;
  title: string;
  description: string;
  image?: string;
  publishedAt: string | null;
  updatedAt: string;
  authorName: string;
  tags: readonly string[];
  membersOnly: boolean;
  publicUrl: string;
}): BlogPosting {
  const url = absoluteUrl(path, publicUrl)!;
  const imageUrl = absoluteUrl(image, publicUrl);
  const headline = title.length > 110 ? `${title.slice(0, 109).trimEnd()}…` : title;
  return {
    "@context": CONTEXT,
    "@type": "BlogPosting",
    "@id": `${url}#article`,
    mainEntityOfPage: url,
    url,
    headline,
    ...(description.trim() ? { description: description.trim() } : {}),
    ...(imageUrl ? { image: [imageUrl] } : {}),
    ...(publishedAt ? { datePublished: publishedAt } : {}),
    dateModified: updatedAt,
    ...(authorName.trim() ? { author: { "@type": "Person" as const, name: authorName.trim() } } : {}),
    publisher: { "@id": businessId(publicUrl) },
    ...(tags.length ? { keywords: tags.join(", ") } : {}),
    ...(membersOnly
      ? {
          isAccessibleForFree: false,
          hasPart: {
            "@type": "WebPageElement" as const,
            isAccessibleForFree: false as const,
            cssSelector: ".article-locked",
          },
        }
      : {}),
  };
}

const UNSAFE = /[<>&\u2028\u2029]/g;
const ESCAPES: Record<string, string> = {
  "<": "\\u003c",
  ">": "\\u003e",
  "&": "\\u0026",
  "\u2028": "\\u2028",
  "\u2029": "\\u2029",
};

/**
 * The text of a `<script type="application/ld+json">`: JSON with `<`, `>` and `&` written as \u escapes, so that no
 * content (a "</script>" in an FAQ answer) can close the element or open another; the JSON means the same.
 */
export function jsonLdText(data: StructuredData | readonly StructuredData[]): string {
  return JSON.stringify(data).replace(UNSAFE, (c) => ESCAPES[c]!);
}
