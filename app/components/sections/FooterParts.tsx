import type { SectionProps } from "./props";
import { ContentImage } from "../media/ContentImage";

/** The logo, or the site's name when no logo is set (the footer's first column). */
export function Logo({ record, siteName = "" }: SectionProps<"logo"> & { siteName?: string }) {
  return record ? (
    <span className="inline-block rounded-lg bg-white px-3 py-2">
      <ContentImage src={record.logo} alt={siteName} sizes="180px" width={180} height={48} className="h-9 w-auto" />
    </span>
  ) : (
    <span className="font-serif text-2xl text-white">{siteName}</span>
  );
}

export function FooterAbout({ record: about }: SectionProps<"footerAbout">) {
  if (!about) return null;
  return (
    <div className="mt-6">
      <h2 className="font-serif text-lg text-white">{about.aboutFooterText}</h2>
      <p className="mt-2 text-sm leading-relaxed">{about.aboutFooterDetails}</p>
    </div>
  );
}

export function FooterAddress({ record: address }: SectionProps<"footerAddress">) {
  if (!address) return null;
  return (
    <ul className="mt-4 space-y-3 text-sm">
      <li className="flex gap-3">
        <Icon path="M3 5a2 2 0 0 1 2-2h2.3a1 1 0 0 1 1 .76l1 4a1 1 0 0 1-.29.98L7.6 10.1a12 12 0 0 0 6.3 6.3l1.36-1.4a1 1 0 0 1 .98-.3l4 1a1 1 0 0 1 .76 1V19a2 2 0 0 1-2 2A17 17 0 0 1 3 5z" />
        <a href={`tel:${address.Phone.replace(/[^0-9+]/g, "")}`} className="hover:text-white">
          {address.Phone}
        </a>
      </li>
      <li className="flex gap-3">
        <Icon path="M12 21s-7-6.1-7-11a7 7 0 1 1 14 0c0 4.9-7 11-7 11zm0-8.5a2.5 2.5 0 1 0 0-5 2.5 2.5 0 0 0 0 5z" />
        <span>{address.Location}</span>
      </li>
      <li className="flex gap-3">
        <Icon path="M4 6h16v12H4zM4 7l8 6 8-6" />
        <a href={`mailto:${address.footerEmail}`} className="break-all hover:text-white">
          {address.footerEmail}
        </a>
      </li>
    </ul>
  );
}

export function FooterSocial({ record: social }: SectionProps<"footerSocial">) {
  if (!social) return null;
  return (
    <div className="mt-6 flex gap-3">
      <SocialLink href={social.fblink} label="Facebook">
        <path d="M14 8h3V4h-3a4 4 0 0 0-4 4v2H8v4h2v8h4v-8h3l1-4h-4V8z" />
      </SocialLink>
      <SocialLink href={social.inslink} label="YouTube">
        <path d="M21.6 7.2a2.5 2.5 0 0 0-1.8-1.8C18.2 5 12 5 12 5s-6.2 0-7.8.4A2.5 2.5 0 0 0 2.4 7.2 26 26 0 0 0 2 12a26 26 0 0 0 .4 4.8 2.5 2.5 0 0 0 1.8 1.8C5.8 19 12 19 12 19s6.2 0 7.8-.4a2.5 2.5 0 0 0 1.8-1.8A26 26 0 0 0 22 12a26 26 0 0 0-.4-4.8zM10 15V9l5.2 3L10 15z" />
      </SocialLink>
    </div>
  );
}

export function Copyright({ record }: SectionProps<"copyright">) {
  return <p className="container-page py-6 text-center text-xs text-white/60">{record?.copyrightText}</p>;
}

function Icon({ path }: { path: string }) {
  return (
    <svg
      className="mt-0.5 h-4 w-4 shrink-0 text-brass"
      viewBox="0 0 24 24"
      fill="none"
      stroke="currentColor"
      strokeWidth="1.8"
      strokeLinejoin="round"
      aria-hidden="true"
    >
      <path d={path} />
    </svg>
  );
}

function SocialLink({ href, label, children }: { href: string; label: string; children: React.ReactNode }) {
  return (
    <a
      href={href}
      target="_blank"
      rel="noopener noreferrer"
      aria-label={label}
      className="inline-flex h-10 w-10 items-center justify-center rounded-full bg-white/10 text-white hover:bg-clay"
    >
      <svg width="18" height="18" viewBox="0 0 24 24" fill="currentColor" aria-hidden="true">
        {children}
      </svg>
    </a>
  );
}
