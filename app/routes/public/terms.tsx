import type { Route } from "./+types/terms";
import { PublicPageBody } from "#app/components/pages/PublicPageBody.tsx";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";
import { publicPage } from "./page-data.server";
import { STATIC_PAGE } from "#app/lib/hydration.ts";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  return publicPage(context, "terms");
}

export const meta: Route.MetaFunction = (args) => pageMeta(args);

/** /terms: the document a person accepts when registering, edited in the back office (decision 037). */
export default function TermsPage({ loaderData }: Route.ComponentProps) {
  return <PublicPageBody page="terms" content={loaderData.content} />;
}
