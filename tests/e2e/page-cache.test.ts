import { createHash } from "node:crypto";
import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import { ROOT } from "../support/server";
import { request } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { notifyContentChanged, startE2E, type E2EEnv } from "../support/e2e";
import { PLAIN_PAGE_SCRIPT } from "#app/lib/plain-page-script.ts";

/** The anonymous page cache (server/http/pages.ts), observed from outside against the built server. */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

const heading = async (init: RequestInit = {}) => {
  const html = await (await fetch(env.server.url + "/", init)).text();
  return /<h1[^>]*>([^<]*)<\/h1>/.exec(html)?.[1];
};
// A change made behind the server's back, without the notification that every real write sends.
const silentlyRename = (text: string) =>
  env.db.pool.query(
    `update content_entries set data = jsonb_set(data, '{bannerHeading}', to_jsonb($1::text)) where type = 'banner'`,
    [text],
  );

describe("the anonymous page cache", () => {
  it("renders a page once per content change and role", async () => {
    const xcache = async (path: string, init: RequestInit = {}) =>
      (await fetch(env.server.url + path, init)).headers.get("x-cache");
    // Notifications arrive asynchronously: wait for each state rather than assume when it comes.
    await expect.poll(async () => (await xcache("/service/")) === "HIT" || (await xcache("/service/"))).toBe("HIT");
    expect(await xcache("/service/")).toBe("HIT");
    expect(await xcache("/service/?utm_source=1&fbclid=2")).toBe("HIT"); // a query string the page does not read
    expect(await xcache("/service/", { headers: { cookie: "session=1" } })).toBe("HIT"); // not a session: a visitor
    expect(await xcache("/service/", { headers: { cookie: "better-auth.session_token=1" } })).toBe("HIT"); // no session
    expect(await xcache("/service/", { headers: { authorization: "Bearer 1" } })).toBe("BYPASS");
    await notifyContentChanged(env.db);
    await expect.poll(() => xcache("/service/")).toBe("MISS");
    expect(await xcache("/service/")).toBe("HIT");
  });

  it("carries a Content-Security-Policy that names the page's own inline scripts, the same on a hit", async () => {
    /** Every inline script but the JSON data blocks (structured data), which never run, and the policy's script-src. */
    const scriptsAndPolicy = async (address: string) => {
      const res = await fetch(env.server.url + address);
      const scripts = [
        ...(await res.text()).matchAll(
          /<script(?![^>]*\bsrc=)(?![^>]*application\/ld\+json)[^>]*>([\s\S]*?)<\/script>/g,
        ),
      ].map(([, body]) => body!);
      const policy = res.headers.get("content-security-policy")!;
      const scriptSrc = policy.split("; ").find((d) => d.startsWith("script-src "))!;
      expect(scriptSrc, address).not.toContain("unsafe-inline");
      for (const body of scripts)
        expect(scriptSrc, address).toContain(`'sha256-${createHash("sha256").update(body).digest("base64")}'`);
      return { res, scripts, policy, scriptSrc };
    };
    const policies: string[] = [];
    // The first view of an address with a query string only learns what the page reads (not stored under it).
    expect((await fetch(env.server.url + "/pricing?csp")).headers.get("x-cache")).toBe("MISS");
    for (let i = 0; i < 2; i++) {
      // A public page is plain HTML (app/lib/hydration.ts) with one small inline script (decision 051): 'self' and
      // that script's hash only.
      const { res, scripts, policy, scriptSrc } = await scriptsAndPolicy("/pricing?csp");
      expect(scripts).toEqual([PLAIN_PAGE_SCRIPT]);
      expect(scriptSrc).toBe(
        `script-src 'self' 'sha256-${createHash("sha256").update(PLAIN_PAGE_SCRIPT).digest("base64")}'`,
      );
      expect(res.headers.get("x-cache")).toBe(i === 0 ? "MISS" : "HIT");
      policies.push(policy);
    }
    expect(policies[1]).toBe(policies[0]);
    // A page React hydrates names each of its inline scripts.
    expect((await scriptsAndPolicy("/login")).scripts.length).toBeGreaterThan(0);
  });

  it("shows a content change at the next view", async () => {
    const original = await heading();
    expect(original).toBeTruthy();
    await silentlyRename("Changed by another instance");
    expect(await heading()).toBe(original); // no notification yet: nothing knows
    await notifyContentChanged(env.db);
    await expect.poll(() => heading()).toBe("Changed by another instance");
    expect(await heading({ headers: { cookie: "a=b" } })).toBe("Changed by another instance");
  });

  it("answers gzip when asked, with the same page, and never leaks the internal marker", async () => {
    const raw = await new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
      const req = request(env.server.url + "/pricing", { headers: { "accept-encoding": "gzip" } }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c) => chunks.push(c));
        res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
      });
      req.on("error", reject);
      req.end();
    });
    expect(raw.headers["content-encoding"]).toBe("gzip");
    expect(raw.headers["x-page-cache"]).toBeUndefined();
    expect(raw.headers["cache-control"]).toBe("no-cache");
    const html = gunzipSync(raw.body).toString("utf8");
    expect(html).toContain("Best Pricing For Business");
    const plain = await fetch(env.server.url + "/pricing", { headers: { "accept-encoding": "identity" } });
    expect(plain.headers.get("content-encoding")).toBeNull();
    expect(await plain.text()).toBe(html);
  });

  it("serves the build's pre-compressed assets when the browser accepts them", async () => {
    const dir = path.join(ROOT, "build/client/assets");
    const name = readdirSync(dir).find((f) => f.endsWith(".js") && readFileSync(path.join(dir, f)).length > 2048)!;
    const original = readFileSync(path.join(dir, name));
    const get = (encoding: string) =>
      new Promise<{ headers: Record<string, unknown>; body: Buffer }>((resolve, reject) => {
        request(`${env.server.url}/assets/${name}`, { headers: { "accept-encoding": encoding } }, (res) => {
          const chunks: Buffer[] = [];
          res.on("data", (c) => chunks.push(c));
          res.on("end", () => resolve({ headers: res.headers, body: Buffer.concat(chunks) }));
        })
          .on("error", reject)
          .end();
      });
    const br = await get("gzip, br");
    expect(br.headers["content-encoding"]).toBe("br");
    expect(br.headers["content-type"]).toBe("text/javascript; charset=utf-8");
    expect(br.headers["cache-control"]).toContain("immutable");
    expect(brotliDecompressSync(br.body).equals(original)).toBe(true);
    expect(br.body.length).toBeLessThan(original.length / 2);
    const gz = await get("gzip");
    expect(gz.headers["content-encoding"]).toBe("gzip");
    expect(gunzipSync(gz.body).equals(original)).toBe(true);
    const plain = await get("identity");
    expect(plain.headers["content-encoding"]).toBeUndefined();
    expect(plain.body.equals(original)).toBe(true);
  });

  it("does not cache error pages or form posts", async () => {
    expect((await fetch(env.server.url + "/nope")).status).toBe(404);
    const missing = await fetch(env.server.url + "/nope");
    expect(missing.headers.get("x-page-cache")).toBeNull();
    expect(missing.headers.get("x-cache")).toBeNull();
    const post = await fetch(env.server.url + "/contact", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: env.server.url },
      // The form's id, as the page's form sends it: the answer is written into that form.
      body: new URLSearchParams({ _form: "contact", name: "", email: "bad" }),
    });
    expect(post.status).toBe(400); // a refused form answers with its status (the one form pattern)
    const html = await post.text();
    expect(html).toContain("Full name is required");
    expect(await (await fetch(env.server.url + "/contact")).text()).not.toContain("Full name is required");
  });
});
