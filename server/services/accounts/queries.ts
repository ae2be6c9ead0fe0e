import { sql } from "drizzle-orm";
import { databaseUnavailable, isDatabaseUnavailable } from "#server/db/client.ts";
import * as schema from "#server/db/schema.ts";
import { staffHome } from "#domain/capabilities.ts";
import { cookieValue } from "../page-role";
import { sessionRefreshDue, sessionTokenOf } from "../session-token";

import { AccountsCtx, SESSION, Viewer, viewerOf } from "./model";

/** Where a person lands after signing in when they asked for no page: staff on their back office, customers on /dashboard. */
export async function landingFor(deps: AccountsCtx, email: string): Promise<string> {
  const { db } = deps;
  const [row] = await db
    .select({ role: schema.adminUsers.userRole })
    .from(schema.adminUsers)
    .innerJoin(schema.user, sql`lower(${schema.user.email}) = lower(${schema.adminUsers.userEmail})`)
    .where(sql`lower(${schema.adminUsers.userEmail}) = lower(${email}) and ${schema.user.emailVerified}`)
    .limit(1);
  return row ? staffHome(row.role) : "/dashboard";
}

/**
 * The signed-in person, or null. An admin is listed in admin_users and has a verified email. A session cookie
 * that is genuine, of a session that is neither over nor due to be extended, is answered with one query (session,
 * person and admin listing together); every other case is better-auth's own lookup (it ends an expired session
 * and moves a session's end on).
 */
export async function viewer(deps: AccountsCtx, headers: Headers): Promise<Viewer | null> {
  const { auth, adminUsers, config, sessionCookie, viewerBySession } = deps;
  const cookie = headers.get("cookie");
  if (!cookie && !headers.get("authorization")) return null;
  if (cookie && !headers.get("authorization")) {
    const token = sessionTokenOf(cookieValue(cookie, sessionCookie), config.authSecret);
    if (!token) return null;
    let row: Awaited<ReturnType<typeof viewerBySession.execute>>[number] | undefined;
    try {
      [row] = await viewerBySession.execute({ token });
    } catch (error) {
      if (isDatabaseUnavailable(error)) throw databaseUnavailable();
      throw error;
    }
    if (!row) return null;
    if (row.expiresAt.getTime() > Date.now() && !sessionRefreshDue(row.expiresAt, Date.now(), SESSION)) {
      return viewerOf(row, row.listed, config.staffTwoFactor);
    }
  }
  let found: Awaited<ReturnType<typeof auth.api.getSession>>;
  try {
    found = await auth.api.getSession({ headers });
  } catch (error) {
    // A session that cannot be looked up is not "signed out": 503, and the visitor stays signed in.
    if (isDatabaseUnavailable(error)) throw databaseUnavailable();
    return null;
  }
  if (!found) return null;
  const u = found.user;
  return viewerOf(u, u.emailVerified ? await adminUsers.roleOf(u.email) : null, config.staffTwoFactor);
}

/** A staff invitation's link (staff.ts invite), or a staff member's reset link: their role; null when unknown or expired. */
export async function invitationOf(deps: AccountsCtx, token: unknown): Promise<{ role: string } | null> {
  const { db } = deps;
  if (typeof token !== "string" || token.length === 0 || token.length > 200) return null;
  const rows = await db.execute<{ role: string }>(sql`
    select a.user_role as role from ${schema.verification} v
    join ${schema.user} u on u.id = v.value
    join ${schema.adminUsers} a on lower(a.user_email) = lower(u.email)
    where v.identifier = ${`reset-password:${token}`} and v.expires_at > now()`);
  const row = rows.rows[0];
  return row ? { role: row.role } : null;
}

/** Users of better-auth, for tests and the admin user list. */
export async function userByEmail(deps: AccountsCtx, email: string) {
  const { db } = deps;
  const [row] = await db
    .select()
    .from(schema.user)
    .where(sql`lower(${schema.user.email}) = lower(${email})`);
  return row;
}
