import type { ContentSnapshot } from "#domain/registry.ts";
import { siteName } from "#domain/site.ts";

/** Who a mail comes from, as the site shows it: the agency's name, logo and address from the site content. */
export interface Brand {
  name: string;
  /** Absolute (mail clients have no base address); undefined when no logo is set. */
  logoUrl: string | undefined;
  /** The logo as mails show it: a PNG drawn from it (server/mail/logo.ts), absolute, with its size in CSS pixels. */
  mailLogo?: { url: string; width: number; height: number };
  siteUrl: string;
  location: string;
  phone: string;
  email: string;
}

/** An address on the site, absolute: a mail is read far from it. */
export function absoluteUrl(publicUrl: string, path: string): string {
  return new URL(path, publicUrl.endsWith("/") ? publicUrl : `${publicUrl}/`).href;
}

export function brandOf(
  content: Pick<ContentSnapshot, "copyright" | "logo" | "footerAddress">,
  publicUrl: string,
): Brand {
  const logo = content.logo[0]?.logo;
  const address = content.footerAddress[0];
  return {
    name: siteName(content),
    logoUrl: logo ? absoluteUrl(publicUrl, logo) : undefined,
    siteUrl: absoluteUrl(publicUrl, "/"),
    location: address?.Location ?? "",
    phone: address?.Phone ?? "",
    email: address?.footerEmail ?? "",
  };
}
