import type { Route } from "./+types/contact";
import { PublicPageBody } from "#app/components/pages/PublicPageBody.tsx";
import { handlePublicForm } from "./forms.server";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";
import { publicPage } from "./page-data.server";
import { STATIC_PAGE } from "#app/lib/hydration.ts";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  return publicPage(context, "contact");
}

/** The contact form posts here (from every page that shows it). */
export async function action({ request, context }: Route.ActionArgs) {
  return handlePublicForm("message", request, context);
}

export const meta: Route.MetaFunction = (args) => pageMeta(args);

/** /contact and /contact-us. */
export default function ContactPage({ loaderData }: Route.ComponentProps) {
  return <PublicPageBody page="contact" content={loaderData.content} />;
}
