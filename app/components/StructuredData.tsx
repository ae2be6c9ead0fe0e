import type { Currency } from "#domain/currency.ts";
import { useLoaderData, useRouteLoaderData } from "react-router";
import type { PageSeo } from "#domain/page-seo.ts";
import { pages, pageTypes, type PageContent, type PageKey } from "../content/pages";
import type { ContentSnapshot } from "#domain/registry.ts";
import {
  faqPage,
  jsonLdText,
  localBusiness,
  planOffers,
  webPage,
  type StructuredData,
} from "#domain/structured-data.ts";

/**
 * The schema.org data of a public page, from what it shows: the page itself as its search listing names it (the
 * route's `seo`), the agency on the home page, an Offer per plan wherever the pricing section is, an FAQPage wherever
 * the FAQ is. One `application/ld+json` script (not run by browsers, so
 * the Content-Security-Policy needs no hash for it), its text escaped by jsonLdText.
 */
/** What this reads of the root route's data (app/root.tsx's loader): named here, so the component needs no import of it. */
interface SiteData {
  siteName: string;
  publicUrl: string;
  chrome: Pick<ContentSnapshot, "logo" | "footerAddress" | "footerSocial">;
  /** The site's currency (the money settings). */
  currency: Currency;
}

export function PageStructuredData<P extends PageKey>({ page, content }: { page: P; content: PageContent<P> }) {
  const root = useRouteLoaderData<SiteData>("root");
  // The search listing of the route drawing these sections (app/routes/public/page-data.server.ts).
  const listing = (useLoaderData() as { seo?: PageSeo } | undefined)?.seo;
  if (!root) return null;
  const shown = content as Partial<ContentSnapshot>;
  const types = pageTypes(page);
  const data: StructuredData[] = [];
  if (listing) {
    data.push(
      webPage({
        path: listing.path,
        title: listing.title.value,
        description: listing.description.value,
        image: listing.image.value,
        publicUrl: root.publicUrl,
      }),
    );
  }
  if (pages[page].path === "/" && page !== "chrome") {
    data.push(
      localBusiness({
        siteName: root.siteName,
        publicUrl: root.publicUrl,
        logo: root.chrome.logo[0],
        address: root.chrome.footerAddress[0],
        social: root.chrome.footerSocial[0],
      }),
    );
  }
  if (types.includes("pricing") && shown.pricing?.length)
    data.push(planOffers({ plans: shown.pricing, publicUrl: root.publicUrl, currency: root.currency }));
  const faq = types.includes("faqItem") ? faqPage(shown.faqItem ?? []) : undefined;
  if (faq) data.push(faq);
  if (!data.length) return null;
  return (
    <script
      type="application/ld+json"
      data-testid="structured-data"
      dangerouslySetInnerHTML={{ __html: jsonLdText(data.length === 1 ? data[0]! : data) }}
    />
  );
}
