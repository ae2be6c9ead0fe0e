import type { Route } from "./+types/pricing";
import { PublicPageBody } from "#app/components/pages/PublicPageBody.tsx";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";
import { publicPage } from "./page-data.server";
import { STATIC_PAGE } from "#app/lib/hydration.ts";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  return publicPage(context, "pricing");
}

export const meta: Route.MetaFunction = (args) => pageMeta(args);

/** /pricing: the pricing section and the FAQ, stacked. */
export default function PricingPage({ loaderData }: Route.ComponentProps) {
  return <PublicPageBody page="pricing" content={loaderData.content} />;
}
