import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * Which of the public pages' variants a visitor gets: the header and footer differ by role only (Login; Dashboard;
 * Dashboard and Admin). The role is carried by a small cookie signed with HMAC and bound to the session cookie's value,
 * so that choosing a cached variant costs no database round trip (decision 025).
 */
export type PageRole = "visitor" | "customer" | "admin";

/** How long a signed role is believed without asking the database again: the delay accepted for a session revoked
 * elsewhere or a role changed by an administrator (sign-out in this browser is seen at once). */
export const PAGE_ROLE_SECONDS = 300;

/** Staff of any role get the "admin" variant: its header links to the back office, where each role sees its areas. */
export function pageRoleOf(viewer: { isAdmin: boolean; staffRole?: string | null } | null): PageRole {
  return viewer ? (viewer.isAdmin || viewer.staffRole ? "admin" : "customer") : "visitor";
}

/** One cookie's value in a Cookie header, as sent (not decoded); undefined when absent. */
export function cookieValue(header: string | undefined, name: string): string | undefined {
  if (!header) return undefined;
  let from = 0;
  for (;;) {
    const at = header.indexOf(name, from);
    if (at === -1) return undefined;
    const end = at + name.length;
    // A whole name: at the start or after "; " (or ";"), and followed by "=".
    if (header.charCodeAt(end) === 61 /* = */ && (at === 0 || isSeparator(header.charCodeAt(at - 1)))) {
      const semi = header.indexOf(";", end + 1);
      return header.slice(end + 1, semi === -1 ? undefined : semi).trim();
    }
    from = end;
  }
}
const isSeparator = (c: number) => c === 59 /* ; */ || c === 32 /* space */ || c === 9; /* tab */

const MEMO = 10_000;
const ROLES: Record<string, PageRole> = { visitor: "visitor", customer: "customer", admin: "admin" };

export interface PageRoleCookies {
  /** The role cookie's name. */
  readonly name: string;
  /**
   * The role a request's cookies prove without the database: "visitor" without a session cookie, the signed role when
   * the role cookie is valid for this very session cookie and not expired, undefined otherwise (ask the database).
   */
  roleOf(cookieHeader: string | undefined): PageRole | undefined;
  /** The Set-Cookie header that carries `role` for the session cookie of `cookieHeader` (undefined: none to bind). */
  setCookie(role: PageRole, cookieHeader: string | undefined): string | undefined;
}

export function createPageRoleCookies(options: {
  secret: string;
  /** better-auth's session cookie name (with its __Secure- prefix when the site is on https). */
  sessionCookie: string;
  secure: boolean;
  seconds?: number;
  now?: () => number;
}): PageRoleCookies {
  const { sessionCookie, secure } = options;
  const seconds = options.seconds ?? PAGE_ROLE_SECONDS;
  const now = options.now ?? Date.now;
  // A key of its own, derived from the auth secret: a role signature is never valid as anything else.
  const key = createHmac("sha256", options.secret).update("atelier page role v1").digest();
  const name = secure ? "__Host-atelier.role" : "atelier.role";
  const mac = (role: string, expires: string, session: string) =>
    createHmac("sha256", key).update(`${role}.${expires}.${session}`).digest("base64url");

  // Cookies already verified (an HMAC costs several microseconds, a page hit about twenty): only genuine ones are
  // kept, each until it expires, at most MEMO of them.
  const verified = new Map<string, { role: PageRole; expiresMs: number }>();

  return {
    name,
    roleOf(header) {
      const session = cookieValue(header, sessionCookie);
      if (!session) return "visitor";
      const value = cookieValue(header, name);
      if (!value) return undefined;
      const memo = `${value} ${session}`;
      const known = verified.get(memo);
      if (known) {
        if (known.expiresMs > now()) return known.role;
        verified.delete(memo);
        return undefined;
      }
      const [role, expires, signature, extra] = value.split(".");
      if (extra !== undefined || !role || !expires || !signature || !ROLES[role]) return undefined;
      const expiresMs = Number(expires) * 1000;
      if (!(expiresMs > now())) return undefined;
      const expected = Buffer.from(mac(role, expires, session));
      const given = Buffer.from(signature);
      if (given.length !== expected.length || !timingSafeEqual(given, expected)) return undefined;
      if (verified.size >= MEMO) verified.clear();
      verified.set(memo, { role: ROLES[role], expiresMs });
      return ROLES[role];
    },
    setCookie(role, header) {
      const session = cookieValue(header, sessionCookie);
      if (!session) return undefined;
      const expires = String(Math.floor(now() / 1000) + seconds);
      return `${name}=${role}.${expires}.${mac(role, expires, session)}; Path=/; Max-Age=${seconds}; HttpOnly; SameSite=Lax${secure ? "; Secure" : ""}`;
    },
  };
}
