import type { Route } from "./+types/home";
import { PublicPageBody } from "#app/components/pages/PublicPageBody.tsx";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";
import { publicPage } from "./page-data.server";
import { STATIC_PAGE } from "#app/lib/hydration.ts";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  return publicPage(context, "home");
}

export const meta: Route.MetaFunction = (args) => pageMeta(args);

/** The landing page: its sections in the spec's order (app/content/pages.ts), then the contact form. */
export default function Home({ loaderData }: Route.ComponentProps) {
  return <PublicPageBody page="home" content={loaderData.content} />;
}
