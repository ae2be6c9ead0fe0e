import type { BlockType } from "#domain/registry.ts";
import { About } from "./About";
import { CallToAction } from "./CallToAction";
import { ContactBlocks } from "./ContactBlocks";
import { Counters } from "./Counters";
import { Experience } from "./Experience";
import { Faq } from "./Faq";
import { Features } from "./Features";
import { Copyright, FooterAbout, FooterAddress, FooterSocial, Logo } from "./FooterParts";
import { Hero } from "./Hero";
import { PrivacyNotice, Terms } from "./LegalDocument";
import { Pricing } from "./Pricing";
import { Steps, WorkSteps } from "./Process";
import type { SectionProps } from "./props";
import { Services } from "./Services";
import { Team, VideoSection } from "./Team";
import { Testimonials } from "./Testimonials";

export type { SectionProps } from "./props";

/**
 * The public component of every section the registry lists (a heading is drawn by its list's component).
 * Typed by the registry: a section without a component, or a component taking another section's records, fails
 * typecheck.
 */
export const sectionComponents: { [T in BlockType]: (props: SectionProps<T>) => React.ReactNode } = {
  logo: Logo,
  banner: Hero,
  serviceItem: Services,
  about: About,
  videoTeamMember: VideoSection,
  step: Steps,
  workStep: WorkSteps,
  counter: Counters,
  action: CallToAction,
  pricing: Pricing,
  faqItem: Faq,
  testimonial: Testimonials,
  featureItem: Features,
  teamMember: Team,
  experience: Experience,
  contactBlock: ContactBlocks,
  footerAbout: FooterAbout,
  footerAddress: FooterAddress,
  footerSocial: FooterSocial,
  copyright: Copyright,
  privacy: PrivacyNotice,
  terms: Terms,
};
