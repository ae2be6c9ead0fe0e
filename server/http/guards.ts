import type { Request, RequestHandler } from "express";
import { fromNodeHeaders } from "better-auth/node";
import { keyActorName } from "#domain/api-keys.ts";
import { can, heldStaffRole, type StaffArea } from "#domain/capabilities.ts";
import { NO_PERMISSION } from "#domain/refusal.ts";
import { TWO_FACTOR_MESSAGES } from "#domain/two-factor.ts";
import type { Services } from "../services";
import type { Viewer } from "../services/accounts";
import { keyActor, type ApiKeyPrincipal } from "../services/api-keys";
import { pageRoleOf, type PageRole, type PageRoleCookies } from "../services/page-role";

declare module "express-serve-static-core" {
  interface Request {
    /** Who is asking, resolved once per request (null when signed out). */
    viewer?: () => Promise<Viewer | null>;
  }
}

/**
 * Attaches a memoised `req.viewer()` to every request: the session is looked up at most once, and only if asked. A
 * request carrying `Authorization: Bearer` is an API key's (decision 077), never a cookie session: it has no viewer
 * here, so pages and their loaders and actions see nobody; the REST router checks the key itself (server/http/api.ts).
 */
export function attachViewer(services: Services): RequestHandler {
  return (req, _res, next) => {
    let pending: Promise<Viewer | null> | undefined;
    const keyed = bearerOf(req) !== null;
    req.viewer = () =>
      (pending ??= keyed ? Promise.resolve(null) : services.accounts.viewer(fromNodeHeaders(req.headers)));
    next();
  };
}

/** The token of `Authorization: Bearer <token>` (empty when none follows the word), or null without that scheme. */
export function bearerOf(req: Pick<Request, "headers">): string | null {
  const match = /^Bearer(?:\s+(\S*))?\s*$/i.exec(req.headers.authorization ?? "");
  return match ? (match[1] ?? "") : null;
}

/**
 * The viewer a keyed REST call runs for: the key, holding no role (heldStaffRole is null) and opening its areas
 * (domain/capabilities.ts `opens`). Its id and "email" are the activity log's actor for the key (`api-key:{id}`,
 * `API key “Name” (atl_…)`). `isAdmin`, which the orders' services read as "every customer's orders", is whether the
 * key has the orders area: the router only lets it reach calls of its areas.
 */
export function keyViewer(key: ApiKeyPrincipal): Viewer {
  const actor = keyActor(key);
  return {
    id: actor.id,
    email: actor.email,
    name: keyActorName(key.name, key.publicId),
    displayName: keyActorName(key.name, key.publicId),
    emailVerified: false,
    staffRole: null,
    isAdmin: key.areas.includes("orders"),
    twoFactorEnabled: false,
    twoFactorDue: false,
    apiKey: key,
  };
}

/** better-auth's calls (/api/auth/*) are a person's sign-in: refused to any request carrying a Bearer key. */
export const refuseApiKeys: RequestHandler = (req, res, next) => {
  if (bearerOf(req) === null) return next();
  res.status(403).json({ error: "API keys cannot use the sign-in calls under /api/auth: they are for people." });
};

export async function viewerOf(req: Request): Promise<Viewer | null> {
  return req.viewer ? req.viewer() : null;
}

/**
 * The role a public page is rendered for: proved by the signed role cookie when it can be (no database), else from the
 * session (one lookup, shared with `req.viewer()`), with the Set-Cookie that spares the next pages that lookup.
 */
export async function requestPageRole(
  req: Request,
  roles: PageRoleCookies,
): Promise<{ role: PageRole; setCookie?: string }> {
  const cookie = req.headers.cookie;
  const proved = roles.roleOf(cookie);
  if (proved) return { role: proved };
  const role = pageRoleOf(await viewerOf(req));
  return { role, setCookie: roles.setCookie(role, cookie) };
}

/** Why a REST call was refused: 401 signed out, 403 signed in without the right. */
export interface Refusal {
  status: 401 | 403;
  error: string;
}

/**
 * The REST API's one access decision, made once per call by the router: the viewer a `user` or `admin` call runs for,
 * or why it may not run. An `admin` call needs a staff role that opens its area; a `user` call with an area refuses the
 * staff whose role does not open it (they would otherwise be answered as customers). Handlers receive the admitted
 * viewer and check nothing themselves.
 */
export function admit(
  access: "user" | "staff",
  viewer: Viewer | null,
  area?: StaffArea,
): { viewer: Viewer } | { refused: Refusal } {
  if (!viewer) return { refused: { status: 401, error: "Sign in to use this call." } };
  const role = heldStaffRole(viewer);
  const refused = { refused: { status: 403 as const, error: NO_PERMISSION } };
  if (access === "staff" && (!role || !area || !can(role, area))) return refused;
  if (access === "user" && role && area && !can(role, area)) return refused;
  // Staff calls (an admin call, or a user call with an area: made as staff) wait for the second factor (decision 040).
  if (role && area && viewer.twoFactorDue) return { refused: { status: 403, error: TWO_FACTOR_MESSAGES.required } };
  return { viewer };
}
