import type { Route } from "./+types/service";
import { PublicPageBody } from "#app/components/pages/PublicPageBody.tsx";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";
import { publicPage } from "./page-data.server";
import { STATIC_PAGE } from "#app/lib/hydration.ts";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  return publicPage(context, "service");
}

export const meta: Route.MetaFunction = (args) => pageMeta(args);

/** /service/: counters, services, the about block with fixed skill bars, then the studio's other sections, and the call to action. */
export default function ServicePage({ loaderData }: Route.ComponentProps) {
  return <PublicPageBody page="service" content={loaderData.content} />;
}
