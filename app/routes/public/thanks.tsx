import { Link } from "react-router";
import { CheckIcon } from "#app/components/StrokeIcon.tsx";
import type { Route } from "./+types/thanks";
import { pageMeta } from "./meta";
import { anonymousPageHeaders } from "./cache";
import { publicSeo } from "./page-data.server";
import { STATIC_PAGE } from "#app/lib/hydration.ts";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

export const headers = anonymousPageHeaders;

export async function loader({ context }: Route.LoaderArgs) {
  return publicSeo(context, "thanks");
}

export const meta: Route.MetaFunction = (args) => [
  ...pageMeta(args),
  { name: "robots", content: "noindex" },
];

export default function Thanks() {
  return (
    <section className="bg-sand">
      <div className="container-page flex flex-col items-center py-28 text-center">
        <span
          className="inline-flex h-16 w-16 items-center justify-center rounded-full bg-forest text-white"
          aria-hidden="true"
        >
          <CheckIcon size={30} />
        </span>
        <h1 className="mt-6 text-4xl text-forest sm:text-5xl">Thank You !</h1>
        <p className="section-lead">We've send the link to your inbox</p>
        <Link to="/" className="btn-primary mt-9">
          Back Home
        </Link>
      </div>
    </section>
  );
}
