import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { CUSTOMER_PASSWORD, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";

/**
 * Issue 33, item 1: where the login page sends a person after signing in (/login?redirectTo=…). Through the real sign-in
 * (the login page's form, as the browser posts it): whatever the link asked for, the answer's Location is a path on
 * this site that no browser reads as another host, even after resolving dot segments and decoding.
 */
let app: TestApp;
const EMAIL = "redirect-owner@example.org";

beforeAll(async () => {
  app = await startTestApp({}, { pages: true });
  await signUp(app, EMAIL);
}, 60_000);
afterAll(() => app?.close());

/** Signs in through the login page's form with this redirectTo; answers where the site sends the person. */
async function signInGoingTo(redirectTo: string): Promise<string> {
  // Every attempt here counts against the loopback address's sign-in limit: each starts afresh.
  await app.db.pool.query("delete from rate_limiter");
  const res = await app.request(`/login?redirectTo=${encodeURIComponent(redirectTo)}`, {
    method: "POST",
    headers: { "content-type": "application/x-www-form-urlencoded" },
    body: new URLSearchParams({ email: EMAIL, password: CUSTOMER_PASSWORD, redirectTo }).toString(),
  });
  await res.arrayBuffer();
  expect(res.status, `signing in with redirectTo=${JSON.stringify(redirectTo)}`).toBe(302);
  expect(res.headers.getSetCookie().length).toBeGreaterThan(0);
  return res.headers.get("location") ?? "";
}

/** How a browser reads a Location on this site: the host it goes to, whatever the path's tricks. */
const hostOf = (location: string) => new URL(location, app.url).host;
const sameSitePath = (location: string) => {
  const decoded = decodeURIComponent(location);
  return (
    location.startsWith("/") &&
    !/^\/[/\\]/.test(location) &&
    !/^\/[/\\]/.test(decoded) &&
    !/[\t\n\r]/.test(decoded) &&
    hostOf(location) === new URL(app.url).host
  );
};

describe("the address a person is sent to after signing in", () => {
  it.each([
    // The variants.
    "/..//evil.example/phish",
    "/.//evil.example",
    "/%2e%2e//evil.example",
    "/a/..//evil.example",
    // More of the same kind.
    "/%2E%2E//evil.example",
    "/./..//evil.example",
    "/a/b/../..//evil.example",
    "/%2e//evil.example",
    "/a/%2e%2e//evil.example",
    "/..%2f%2fevil.example",
    "/%2F%2Fevil.example",
    "/%2f/evil.example",
    "/%5Cevil.example",
    "/%5C%5Cevil.example",
    "/..%5C%5Cevil.example",
    "/\\evil.example",
    "/..\\/evil.example",
    "\\\\evil.example",
    "/\t/evil.example",
    "/\n/evil.example",
    "/%09/evil.example",
    "/%0a/evil.example",
    "//evil.example",
    "///evil.example",
    "https://evil.example/phish",
    "HTTPS://evil.example",
    "https:evil.example",
    "//evil.example@site/x",
    "javascript:alert(1)",
    "JaVaScRiPt:alert(1)",
    " /dashboard",
    "evil.example",
  ])("%j: stays on this site", async (asked) => {
    const location = await signInGoingTo(asked);
    expect(sameSitePath(location), `${JSON.stringify(asked)} sent the person to ${location}`).toBe(true);
  });

  it.each([
    ["/my-order?page=2", "/my-order?page=2"],
    ["/item/abc#top", "/item/abc#top"],
    ["/a/../dashboard", "/dashboard"],
    ["/account/security", "/account/security"],
  ])("%j: the page asked for is where the person goes (%s)", async (asked, expected) => {
    expect(await signInGoingTo(asked)).toBe(expected);
  });

  it("a refused address sends the person to their landing page", async () => {
    expect(await signInGoingTo("/..//evil.example/phish")).toBe("/dashboard");
  });
});
