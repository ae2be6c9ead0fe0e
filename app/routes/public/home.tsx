import type { Route } from "./+types/home";
import { About } from "../../components/sections/About";
import { CallToAction } from "../../components/sections/CallToAction";
import { ContactForm } from "../../components/sections/ContactForm";
import { Hero } from "../../components/sections/Hero";
import { Pricing } from "../../components/sections/Pricing";
import { Services } from "../../components/sections/Services";
import { Testimonials } from "../../components/sections/Testimonials";
import { parseVideoId } from "../../lib/video";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const c = await context.services.content.snapshot();
  return {
    banner: c.banner[0],
    serviceHeading: c.serviceHeading[0],
    services: c.serviceItem,
    about: c.about,
    pricing: c.pricing,
    testimonialText: c.testimonialText[0],
    testimonials: c.testimonial,
    action: c.action[0],
  };
}

export const meta: Route.MetaFunction = (args) => {
  const banner = args.data?.banner;
  const image = banner && !parseVideoId(banner.bannerImage) ? banner.bannerImage : undefined;
  return pageMeta(args, {
    title: banner?.bannerHeading ?? "Interior design and SEO",
    description: banner?.bannerDetails ?? "Interior design and search engine optimisation studio.",
    path: "/",
    image,
  });
};

/** The landing page, sections in the spec's order. */
export default function Home({ loaderData: d }: Route.ComponentProps) {
  return (
    <>
      {d.banner ? <Hero banner={d.banner} /> : null}
      <Services id="service-sec" heading={d.serviceHeading} items={d.services} />
      <About id="who-sec" items={d.about} />
      <Pricing packages={d.pricing} />
      <Testimonials heading={d.testimonialText} items={d.testimonials} />
      <CallToAction action={d.action} />
      <ContactForm />
    </>
  );
}
