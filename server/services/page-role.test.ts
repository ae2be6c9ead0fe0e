import { describe, expect, it } from "vitest";
import { cookieValue, createPageRoleCookies, pageRoleOf } from "./page-role";

const SESSION = "better-auth.session_token";
let clock = 1_800_000_000_000;
const roles = createPageRoleCookies({
  secret: "s".repeat(40),
  sessionCookie: SESSION,
  secure: false,
  now: () => clock,
});
/** The cookie header a browser sends back after `setCookie`. */
const sent = (setCookie: string) => setCookie.split(";")[0]!;

describe("cookieValue", () => {
  it("finds a whole cookie name only", () => {
    const header = "xbetter-auth.session_token=no; better-auth.session_token=abc%2Fd.sig; other=1";
    expect(cookieValue(header, SESSION)).toBe("abc%2Fd.sig");
    expect(cookieValue("a=1;b=2", "b")).toBe("2");
    expect(cookieValue("ab=1", "b")).toBeUndefined();
    expect(cookieValue(undefined, "b")).toBeUndefined();
  });
});

describe("page role cookies", () => {
  const session = `${SESSION}=token.signature`;

  it("is a visitor without a session cookie, whatever role cookie comes", () => {
    const forged = sent(roles.setCookie("admin", session)!);
    expect(roles.roleOf(undefined)).toBe("visitor");
    expect(roles.roleOf(`a=b; ${forged}`)).toBe("visitor");
  });

  it("believes a role it signed for this session until it expires", () => {
    for (const role of ["visitor", "customer", "admin"] as const) {
      const cookie = roles.setCookie(role, session)!;
      expect(cookie).toMatch(/; Path=\/; Max-Age=300; HttpOnly; SameSite=Lax$/);
      expect(roles.roleOf(`${session}; ${sent(cookie)}`)).toBe(role);
    }
    const cookie = sent(roles.setCookie("admin", session)!);
    clock += 299_000;
    expect(roles.roleOf(`${session}; ${cookie}`)).toBe("admin");
    clock += 2_000;
    expect(roles.roleOf(`${session}; ${cookie}`)).toBeUndefined();
  });

  it("asks the database (undefined) for a missing, altered or moved role cookie", () => {
    expect(roles.roleOf(session)).toBeUndefined();
    const [, value] = sent(roles.setCookie("customer", session)!).split("=");
    expect(roles.roleOf(`${session}; atelier.role=${value!.replace("customer", "admin")}`)).toBeUndefined();
    // Signed for another session (say, the one before a sign-out and a sign-in as someone else).
    expect(roles.roleOf(`${SESSION}=other.signature; atelier.role=${value}`)).toBeUndefined();
    expect(roles.roleOf(`${session}; atelier.role=admin`)).toBeUndefined();
    expect(roles.roleOf(`${session}; atelier.role=root.9999999999.x`)).toBeUndefined();
  });

  it("signs with a key of the secret: another secret's cookie is not believed", () => {
    const other = createPageRoleCookies({
      secret: "t".repeat(40),
      sessionCookie: SESSION,
      secure: false,
      now: () => clock,
    });
    expect(roles.roleOf(`${session}; ${sent(other.setCookie("admin", session)!)}`)).toBeUndefined();
  });

  it("uses a __Host- cookie with Secure on https", () => {
    const secure = createPageRoleCookies({
      secret: "s".repeat(40),
      sessionCookie: `__Secure-${SESSION}`,
      secure: true,
    });
    const cookie = secure.setCookie("customer", `__Secure-${SESSION}=t.s`)!;
    expect(cookie).toMatch(/^__Host-atelier\.role=customer\./);
    expect(cookie).toMatch(/; Secure$/);
    expect(secure.roleOf(`__Secure-${SESSION}=t.s; ${sent(cookie)}`)).toBe("customer");
  });

  it("has no cookie to set without a session to bind to", () => {
    expect(roles.setCookie("customer", "a=b")).toBeUndefined();
  });

  it("maps a viewer to its role", () => {
    expect(pageRoleOf(null)).toBe("visitor");
    expect(pageRoleOf({ isAdmin: false })).toBe("customer");
    expect(pageRoleOf({ isAdmin: true })).toBe("admin");
  });
});
