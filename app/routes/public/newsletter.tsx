import { Link } from "react-router";
import type { Route } from "./+types/newsletter";
import { handlePublicForm } from "./forms.server";
import { SIGNUP_NEXT_STEP } from "#domain/public-texts.ts";
import { STATIC_PAGE } from "#app/lib/hydration.ts";

/** Plain server-rendered HTML, no client JavaScript (docs/decisions/027). */
export const handle = STATIC_PAGE;

/** The footer's newsletter form posts here. */
export async function action({ request, context }: Route.ActionArgs) {
  return handlePublicForm("subscriber", request, context);
}

export const meta: Route.MetaFunction = () => [{ title: "Newsletter" }, { name: "robots", content: "noindex" }];

/** Shown only when the form was sent without JavaScript. */
export default function Newsletter({ actionData }: Route.ComponentProps) {
  return (
    <section className="bg-sand">
      <div className="container-page py-24 text-center">
        <h1 className="section-title">{actionData?.ok ? actionData.messages[0] : "Newsletter"}</h1>
        <p className="section-lead" role={actionData && !actionData.ok ? "alert" : undefined}>
          {actionData && !actionData.ok
            ? actionData.messages[0]
            : actionData?.ok
              ? SIGNUP_NEXT_STEP
              : "Use the form in the footer to subscribe."}
        </p>
        <Link to="/" className="btn-primary mt-8">
          Back Home
        </Link>
      </div>
    </section>
  );
}
