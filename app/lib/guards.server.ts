import { data, redirect, type AppLoadContext } from "react-router";
import type { Viewer } from "../../server/services/accounts";
import { loginUrl } from "./redirect";

/**
 * Page guards: a loader or action starts with the one for its audience; nothing else checks roles.
 * Signed out: to /login, remembering where the visitor was going. Signed in without the right: 403.
 */
export async function requireUser(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await context.viewer();
  if (!viewer) throw redirect(loginUrl(request));
  return viewer;
}

export async function requireAdmin(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await requireUser(request, context);
  if (!viewer.isAdmin) throw data({ message: "You don't have any permission" }, { status: 403 });
  return viewer;
}

/** Login and register are for signed-out visitors: a signed-in one goes to the dashboard. */
export async function requireAnonymous(context: AppLoadContext): Promise<void> {
  if (await context.viewer()) throw redirect("/dashboard");
}

/** What an auth action needs to know about the attempt. */
export function attempt(request: Request, context: AppLoadContext) {
  return { ip: context.clientIp, headers: request.headers };
}
