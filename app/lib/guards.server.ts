import { data, redirect, type AppLoadContext } from "react-router";
import type { Viewer } from "#server/services/accounts.ts";
import { loginUrl } from "./redirect";
import { can, heldStaffRole, staffHome, type StaffArea, type StaffRole } from "#domain/capabilities.ts";
import { NO_PERMISSION } from "#domain/refusal.ts";

/** Where staff turn on two-factor sign-in; the back office sends them there until they have (decision 040). */
export const TWO_FACTOR_PAGE = "/account/security";

/**
 * Page guards: a loader or action starts with the one for its audience; nothing else checks roles.
 * Signed out: to /login, remembering where the visitor was going. Signed in without the right: 403.
 */
export async function requireUser(request: Request, context: AppLoadContext): Promise<Viewer> {
  const viewer = await context.viewer();
  if (!viewer) throw redirect(loginUrl(request));
  return viewer;
}

/**
 * A back-office page: staff only, and, when the page names its area, a role that opens it (domain/capabilities.ts,
 * the table the REST calls read too). Without an area: any staff member (the layout).
 */
export async function requireStaff(
  request: Request,
  context: AppLoadContext,
  area?: StaffArea,
): Promise<Viewer & { staffRole: StaffRole }> {
  const viewer = await requireUser(request, context);
  const role = heldStaffRole(viewer);
  if (!role || (area && !can(role, area))) throw forbidden();
  // Staff who must have a second factor and have none enrol first (decision 040).
  if (viewer.twoFactorDue) throw redirect(TWO_FACTOR_PAGE);
  return { ...viewer, staffRole: role };
}

/** The dashboard (orders and sales): a staff member who does not see orders starts on their own home instead. */
export async function requireStaffHome(request: Request, context: AppLoadContext) {
  const viewer = await requireStaff(request, context);
  if (!can(viewer.staffRole, "orders")) throw redirect(staffHome(viewer.staffRole));
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

/** A page's or action's refusal (403, the one text): for a rule beyond the area the guard already checked. */
export function forbidden() {
  return data({ message: NO_PERMISSION }, { status: 403 });
}
