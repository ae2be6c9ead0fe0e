import { readFileSync } from "node:fs";
import { request } from "node:http";
import path from "node:path";
import { brotliDecompressSync, gunzipSync } from "node:zlib";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage, PHONE } from "../support/browser";
import { ADMIN, logIn, notifyContentChanged, startE2E, type E2EEnv } from "../support/e2e";
import { register } from "../support/pages";
import { ROOT } from "../support/server";
import { PLAIN_PAGE_SCRIPT } from "#app/lib/plain-page-script.ts";

/**
 * What issue 14 part 5 promises, observed from outside against the built server: the public pages load no script at
 * all (and break no Content-Security-Policy), every text answer is compressed, the shipped images have hashed addresses
 * cached a year (the old ones still answer), and the structured data is there and right.
 */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

const PUBLIC_PAGES = ["/", "/service/", "/pricing", "/contact"];
// zod's classes keep their names in the minified bundle (zod/v4/classic: $constructor("ZodObject", …)); Conform's
// form engine keeps the data attribute it marks fields with (element.dataset.conform).
const ZOD = /ZodObject/;
const CONFORM = /dataset\.conform/;

/** Opens `address` and returns the body of every script the page loaded, and each CSP violation it raised. */
async function scriptsOf(page: Page, address: string) {
  const scripts = new Map<string, Promise<string>>();
  page.on("response", (res) => {
    if (res.request().resourceType() === "script") scripts.set(res.url(), res.text());
  });
  await page.goto(address);
  await page.waitForLoadState("networkidle");
  const violations = await page.evaluate(() => (window as unknown as { violations: string[] }).violations);
  return { scripts: new Map(await Promise.all([...scripts].map(async ([u, t]) => [u, await t] as const))), violations };
}

async function page() {
  const p = await newPage(env.browser, env.server.url, { viewport: PHONE });
  await p.addInitScript(() => {
    const w = window as unknown as { violations: string[] };
    w.violations = [];
    document.addEventListener("securitypolicyviolation", (e) =>
      w.violations.push(`${e.violatedDirective} ${e.blockedURI}`),
    );
  });
  return p;
}

/** A raw GET (fetch would decode the body and hide how it came). */
function rawGet(address: string, headers: Record<string, string>) {
  return new Promise<{ status: number; headers: Record<string, string | string[] | undefined>; body: Buffer }>(
    (resolve, reject) => {
      request(env.server.url + address, { headers }, (res) => {
        const chunks: Buffer[] = [];
        res.on("data", (c: Buffer) => chunks.push(c));
        res.on("end", () => resolve({ status: res.statusCode!, headers: res.headers, body: Buffer.concat(chunks) }));
      })
        .on("error", reject)
        .end();
    },
  );
}

describe("the public pages' weight and safety", () => {
  it("are plain HTML: no module script, no module preload, only the plain pages' inline script, no CSP violation; /login still hydrates", async () => {
    const p = await page();
    for (const address of [...PUBLIC_PAGES, "/blog", "/thanks", "/no-such-page"]) {
      const { scripts, violations } = await scriptsOf(p, address);
      expect([...scripts.keys()], address).toEqual([]);
      expect(violations, address).toEqual([]);
      expect(await p.locator("html[data-hydrated]").count(), address).toBe(0);
      const html = await (await fetch(env.server.url + address)).text();
      expect(html, address).not.toMatch(/<script[^>]*type="module"/);
      expect(html, address).not.toMatch(/modulepreload/);
      // Besides JSON-LD data blocks, which never run, one inline script: the plain pages' own (decision 051).
      const inline = [...html.matchAll(/<script(?![^>]*type="application\/ld\+json")[^>]*>([\s\S]*?)<\/script>/g)];
      expect(
        inline.map((m) => m[1]),
        address,
      ).toEqual([PLAIN_PAGE_SCRIPT]);
    }
    const login = await (await fetch(env.server.url + "/login")).text();
    expect(login).toMatch(/<script[^>]*type="module"/);
    expect(login).toMatch(/rel="modulepreload"/);
    const { scripts } = await scriptsOf(p, "/login");
    expect(scripts.size).toBeGreaterThan(3);
    // Its form is checked by the server alone (decision 054): no zod either.
    expect([...scripts.values()].some((body) => ZOD.test(body))).toBe(false);
    await p.context().close();
  });

  // Issue 28 part 6 (decision 054): the server checks every form, so no page ships a validation library or form
  // engine only to repeat it; zod's eval probe also broke the pages' Content-Security-Policy (a DevTools issue).
  it("signed-in pages load neither zod nor Conform and raise no CSP violation", async () => {
    // The markers are real: they are in zod's and Conform's own code.
    expect(readFileSync(path.join(ROOT, "node_modules/zod/v4/classic/schemas.js"), "utf8")).toMatch(ZOD);
    expect(readFileSync(path.join(ROOT, "node_modules/@conform-to/dom/dist/form.mjs"), "utf8")).toMatch(CONFORM);
    const check = async (p: Page, addresses: string[], plain = false) => {
      for (const address of addresses) {
        const { scripts, violations } = await scriptsOf(p, address);
        expect(new URL(p.url()).pathname, address).toBe(address);
        // A plain page (decision 057) loads no module at all; the others React and their page's modules.
        if (plain) expect(scripts.size, address).toBe(0);
        else expect(scripts.size, address).toBeGreaterThan(3);
        for (const [url, body] of scripts) {
          expect(ZOD.test(body), `${address} ${url}`).toBe(false);
          expect(CONFORM.test(body), `${address} ${url}`).toBe(false);
        }
        expect(violations, address).toEqual([]);
      }
    };
    const customer = await page();
    await register(customer, { email: "weight@example.org", password: "quiet-harbour-71" });
    await check(customer, ["/account"]);
    await check(customer, ["/dashboard", "/my-order"], true);
    await customer.context().close();
    const admin = await page();
    await logIn(admin, ADMIN.email, ADMIN.password);
    await check(admin, ["/admin", "/total-orders", "/customers", "/edit-banner"]);
    await admin.context().close();
  });

  it("compresses /__manifest, JSON answers, robots.txt and the sitemap when gzip is accepted", async () => {
    const html = await (await fetch(env.server.url + "/login")).text();
    const version = /\/assets\/manifest-(\w+)\.js/.exec(html)?.[1];
    expect(version).toBeTruthy();
    const paths = ["/", "/service/", "/pricing", "/contact", "/login", "/register", "/newsletter", "/thanks"];
    const manifest = `/__manifest?paths=${encodeURIComponent(paths.join(","))}&version=${version}`;
    for (const address of [manifest, "/api/faq-items", "/api/pricings", "/sitemap.xml"]) {
      const gz = await rawGet(address, { "accept-encoding": "gzip" });
      expect(gz.status, address).toBe(200);
      expect(gz.headers["content-encoding"], address).toBe("gzip");
      expect(String(gz.headers.vary), address).toMatch(/Accept-Encoding/i);
      const plain = await rawGet(address, { "accept-encoding": "identity" });
      expect(plain.headers["content-encoding"], address).toBeUndefined();
      expect(gunzipSync(gz.body).equals(plain.body), address).toBe(true);
    }
    const br = await rawGet("/api/faq-items", { "accept-encoding": "gzip, br" });
    expect(br.headers["content-encoding"]).toBe("br");
    expect(JSON.parse(brotliDecompressSync(br.body).toString())).toBeTruthy();
  });
});

describe("the shipped images", () => {
  const hashed: Record<string, string> = JSON.parse(
    readFileSync(path.join(ROOT, "build/client/static-images.json"), "utf8"),
  );

  it("are served under hashed names for a year, and their old addresses still answer with the same image", async () => {
    expect(Object.keys(hashed).length).toBeGreaterThan(10);
    const target = hashed["/images/logo.svg"]!;
    expect(target).toMatch(/^\/assets\/logo-[0-9a-f]{12}\.svg$/);
    const res = await fetch(env.server.url + target);
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toMatch(/immutable/);
    expect(res.headers.get("cache-control")).toMatch(/max-age=31536000/);
    const bytes = Buffer.from(await res.arrayBuffer());
    const old = await fetch(env.server.url + "/images/logo.svg");
    expect(old.status).toBe(200);
    expect(Buffer.from(await old.arrayBuffer()).equals(bytes)).toBe(true);
    expect(bytes.equals(readFileSync(path.join(ROOT, "public/images/logo.svg")))).toBe(true);
  });

  it("are drawn from their hashed address when the content names the old one", async () => {
    await env.db.pool.query(
      `update content_entries set data = jsonb_set(data, '{logo}', '"/images/logo.svg"') where type = 'logo'`,
    );
    await notifyContentChanged(env.db);
    const logoSrc = async () => {
      const html = await (await fetch(env.server.url + "/pricing")).text();
      return /<header[\s\S]*?<img[^>]*\bsrc="([^"]+)"/.exec(html)?.[1];
    };
    await expect.poll(logoSrc).toBe(hashed["/images/logo.svg"]);
    const p = await page();
    await p.goto("/pricing");
    await expect.poll(() => p.locator("header img").first().getAttribute("src")).toBe(hashed["/images/logo.svg"]);
    await p.context().close();
  });
});

describe("structured data", () => {
  it("describes the agency on / with the footer's address, phone, email and social links", async () => {
    const html = await (await fetch(env.server.url + "/")).text();
    const blocks = [...html.matchAll(/<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/g)];
    expect(blocks).toHaveLength(1);
    const items = [JSON.parse(blocks[0]![1]!)].flat() as Record<string, unknown>[];
    const business = items.find((i) => i["@type"] === "LocalBusiness")!;
    const [address] = (await (await fetch(env.server.url + "/api/footer-address")).json()) as {
      Location: string;
      Phone: string;
      footerEmail: string;
    }[];
    const [social] = (await (await fetch(env.server.url + "/api/footer-social")).json()) as { fblink: string }[];
    expect(business).toMatchObject({
      "@context": "https://schema.org",
      name: expect.any(String),
      url: `${env.server.url}/`,
      address: { "@type": "PostalAddress", streetAddress: address!.Location },
      telephone: address!.Phone,
      email: address!.footerEmail,
    });
    expect(business.sameAs).toContain(social!.fblink);
    // The footer shows the same address.
    expect(html).toContain(address!.Location);
    // Data blocks are not scripts: the page's policy lists no hash for it.
    const policy = (await fetch(env.server.url + "/")).headers.get("content-security-policy")!;
    const { createHash } = await import("node:crypto");
    expect(policy).not.toContain(createHash("sha256").update(blocks[0]![1]!).digest("base64"));
  });

  it("lists the plans as Offers and the FAQ as an FAQPage on /pricing", async () => {
    const html = await (await fetch(env.server.url + "/pricing")).text();
    const [, text] = /<script type="application\/ld\+json"[^>]*>([\s\S]*?)<\/script>/.exec(html)!;
    const items = [JSON.parse(text!)].flat() as Record<string, unknown>[];
    const plans = (await (await fetch(env.server.url + "/api/pricings")).json()) as {
      packageName: string;
      packagePrice: number;
      packageValidity: number;
    }[];
    const catalog = items.find((i) => i["@type"] === "OfferCatalog") as { itemListElement: Record<string, unknown>[] };
    expect(catalog.itemListElement).toHaveLength(plans.length);
    expect(catalog.itemListElement[0]).toMatchObject({
      "@type": "Offer",
      name: plans[0]!.packageName,
      price: plans[0]!.packagePrice.toFixed(2),
      priceCurrency: "USD",
      eligibleDuration: { value: plans[0]!.packageValidity, unitCode: "DAY" },
    });
    const faq = items.find((i) => i["@type"] === "FAQPage") as { mainEntity: unknown[] };
    const questions = (await (await fetch(env.server.url + "/api/faq-items")).json()) as unknown[];
    expect(faq.mainEntity).toHaveLength(questions.length);
  });
});
