import type { Route } from "./+types/privacy";
import { PublicPageBody } from "#app/components/pages/PublicPageBody.tsx";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";
import { publicPage } from "./page-data.server";
import { STATIC_PAGE } from "#app/lib/hydration.ts";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  return publicPage(context, "privacy");
}

export const meta: Route.MetaFunction = (args) => pageMeta(args);

/** /privacy: the document a person accepts when registering, edited in the back office (decision 037). */
export default function PrivacyPage({ loaderData }: Route.ComponentProps) {
  return <PublicPageBody page="privacy" content={loaderData.content} />;
}
