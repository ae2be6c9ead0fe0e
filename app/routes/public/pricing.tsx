import type { Route } from "./+types/pricing";
import { Faq } from "../../components/sections/Faq";
import { Pricing } from "../../components/sections/Pricing";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  const c = await context.services.content.snapshot();
  return { pricing: c.pricing, faqText: c.faqText[0], faq: c.faqItem };
}

export const meta: Route.MetaFunction = (args) =>
  pageMeta(args, {
    title: "Pricing",
    description: `Membership plans: ${(args.data?.pricing ?? []).map((p) => `${p.packageName} $${p.packagePrice}`).join(", ")}. Cold-email generators, design and SEO support.`,
    path: "/pricing",
  });

/** /pricing: the pricing section and the FAQ, stacked. */
export default function PricingPage({ loaderData: d }: Route.ComponentProps) {
  return (
    <>
      <Pricing packages={d.pricing} titleAs="h1" />
      <Faq heading={d.faqText} items={d.faq} />
    </>
  );
}
