import { redirect } from "react-router";
import type { Route } from "./+types/logout";

/** Sign Out: a POST (a link could be triggered by another site); ends the session and goes home. */
export async function action({ request, context }: Route.ActionArgs) {
  const headers = await context.services.accounts.signOut(request.headers);
  throw redirect("/", { headers });
}

export async function loader() {
  throw redirect("/");
}
