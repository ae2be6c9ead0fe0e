import type { PageContent } from "#app/content/pages.ts";
import type { PreviewPage } from "#app/content/preview.ts";
import { ContactForm } from "../sections/ContactForm";
import { PageHeader } from "../sections/PageHeader";
import { RenderSections } from "../sections/RenderSections";

/**
 * What each public page drawn from content sections shows inside the site's frame, given its content: one place for
 * the page's route and for the preview of an unsaved change (decision 074), so a preview is drawn by the very
 * components the page is.
 */
export const publicPageBodies: { [P in PreviewPage]: (props: { content: PageContent<P> }) => React.ReactNode } = {
  /** The landing page: its sections in the spec's order (app/content/pages.ts), then the contact form. */
  home: ({ content }) => (
    <>
      <RenderSections page="home" content={content} />
      <ContactForm />
    </>
  ),
  /** /service/: counters, services, the about block with fixed skill bars, the studio's other sections, the call to action. */
  service: ({ content }) => (
    <>
      <PageHeader title="Service Page" lead={content.serviceHeading[0]?.servicesubHeading} />
      <RenderSections page="service" content={content} />
    </>
  ),
  /** /pricing: the pricing section and the FAQ, stacked. */
  pricing: ({ content }) => <RenderSections page="pricing" content={content} />,
  /** /contact and /contact-us. */
  contact: ({ content }) => (
    <>
      <PageHeader title="Contact Us" lead="Questions about a project, a membership or an invoice: we are here." />
      <RenderSections page="contact" content={content} />
      <ContactForm />
    </>
  ),
  /** The documents a person accepts when registering (decision 037). */
  privacy: ({ content }) => <RenderSections page="privacy" content={content} />,
  terms: ({ content }) => <RenderSections page="terms" content={content} />,
};

/** One public page's body from its content (the preview draws any of them). */
export function PublicPageBody<P extends PreviewPage>({ page, content }: { page: P; content: PageContent<P> }) {
  const Body = publicPageBodies[page] as (props: { content: PageContent<P> }) => React.ReactNode;
  return <Body content={content} />;
}
