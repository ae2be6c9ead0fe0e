import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { AUTH_LIMITS } from "#server/services/accounts.ts";
import { attemptSignUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";

// Issue 12, D2: behind one proxy, the client address is the one that proxy appended (right-most), not the left-most
// value, which the client writes itself.
let app: TestApp;
beforeAll(async () => {
  app = await startTestApp({ TRUST_PROXY: "true" });
});
afterAll(() => app?.close());

const randomIp = () => [...randomBytes(4)].map((b) => (b % 250) + 1).join(".");
const signUp = async (forwardedFor: string) =>
  (
    await attemptSignUp(app, `${randomBytes(6).toString("hex")}@example.org`, {
      headers: { "x-forwarded-for": forwardedFor },
    })
  ).res;

describe("the client address behind a proxy (TRUST_PROXY)", () => {
  it("a forged left-most X-Forwarded-For does not escape the per-IP sign-up limit", async () => {
    const statuses: number[] = [];
    for (let i = 0; i < AUTH_LIMITS.signUpIp.limit + 2; i++) {
      statuses.push((await signUp(`${randomIp()}, 198.51.100.7`)).status);
    }
    expect(statuses.filter((s) => s === 200)).toHaveLength(AUTH_LIMITS.signUpIp.limit);
    expect(statuses.slice(-2)).toEqual([429, 429]);
  });

  it("the address the proxy appended is the client's: another client keeps its own allowance", async () => {
    expect((await signUp(`${randomIp()}, 198.51.100.8`)).status).toBe(200);
  });
});
