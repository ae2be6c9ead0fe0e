import { randomBytes } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "#server/http/routes/index.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import { demoCatalogue } from "#server/seed/demo-catalogue.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { pages } from "#app/content/pages.ts";
import { siteAddresses, siteRecords } from "../support/routes";
import { CookieJar } from "../support/session";

/**
 * Issue 33, item 4: an answer made for a signed-in person (a page's HTML, its `.data`, a download, a redirect, a REST
 * answer) is never kept by a shared cache nor shown again by the back button after sign-out: `Cache-Control: private,
 * no-store` and `Vary: Cookie`. The public pages the page cache serves keep their cache (decisions 007 and 025). Every
 * route of app/routes.ts, signed in as each role.
 */
let app: TestApp;
const jars = { customer: new CookieJar(), editor: new CookieJar(), admin: new CookieJar() };
const ids = { package: "", paid: "", paidNumber: "", unpaid: "", item: "" };

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "private-owner@example.org", ADMIN_PASSWORD: "private-owner-1", RATE_LIMIT_PUBLIC_FORMS: "100000" },
    { pages: true },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.catalogue.seedIfEmpty(demoCatalogue);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: jars.admin });
  jars.customer = await signUp(app, "private-customer@example.org");
  jars.editor = await signUpStaff(app, app.db.pool, "private-editor@example.org", "Editor");
  const [pkg] = (await (await app.request("/api/pricings")).json()) as { _id: string }[];
  ids.package = pkg!._id;
  const place = async () => {
    const res = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: ids.package, customerName: "Ines", customerAddress: "3 Mill Lane", customerCountry: "UK" },
      jar: jars.customer,
    });
    return ((await res.json()) as { insertedId: string }).insertedId;
  };
  ids.paid = await place();
  ids.unpaid = await place();
  await app.services.orders.pay(ids.paid, PAYPAL_ACTOR, `TX-${randomBytes(4).toString("hex")}`);
  const pool = app.db.pool;
  ids.paidNumber = String((await pool.query("select number from orders where id = $1", [ids.paid])).rows[0].number);
  ids.item = String((await pool.query("select id from catalogue_items limit 1")).rows[0].id);
  // The records the back office's pages show: a message, a PayPal account, a subscription.
  await app.request("/api/add-message", {
    method: "POST",
    json: { name: "Ann", email: "ann@example.org", subject: "Hello", message: "A question" },
  });
  await app.request("/api/add-email", { method: "POST", json: { paypalEmail: "till@example.org" }, jar: jars.admin });
  await pool.query(
    "insert into subscriptions (subscr_id, order_id, user_id, signed_up_at) select 'I-PRIVATE', id, user_id, now() from orders where id = $1",
    [ids.paid],
  );
  // A published article with a members' part (issue 36): made for each signed-in reader, never kept for their role.
  await pool.query(
    `insert into articles (slug, title, body_html, access, tags, tag_slugs, state, published_at)
     values ('members-part', 'Members part', '<p>Open.</p><hr data-members-only /><p>Members.</p>', 'split',
             '{Light}', '{light}', 'published', now())`,
  );
  app.services.content.invalidate();
}, 120_000);
afterAll(() => app?.close());

/** React Router's data request for a page (single fetch): /dashboard.data, /_root.data for the home page. */
const dataOf = (address: string) => (address === "/" ? "/_root.data" : `${address}.data`);
const fromPageCache = (res: Response) => ["HIT", "MISS"].includes(res.headers.get("x-cache") ?? "");
const varies = (res: Response) =>
  (res.headers.get("vary") ?? "")
    .split(",")
    .map((v) => v.trim().toLowerCase())
    .includes("cookie");
const isPrivate = (res: Response) =>
  /\bprivate\b/.test(res.headers.get("cache-control") ?? "") &&
  /\bno-store\b/.test(res.headers.get("cache-control") ?? "") &&
  varies(res);

describe("answers for a signed-in person", () => {
  it("every route of app/routes.ts, as HTML and .data, signed in as each role: private, no-store, Vary: Cookie", async () => {
    const routes = await siteAddresses(siteRecords(app.db.pool, ids), { resources: true });
    expect(routes.length).toBeGreaterThan(90);
    const wrong: string[] = [];
    const perRole: Record<string, number> = {};
    let kept = 0;
    for (const [role, jar] of Object.entries(jars)) {
      for (const route of routes) {
        for (const address of route.page ? [route.address, dataOf(route.address)] : [route.address]) {
          const res = await app.request(address, { jar });
          await res.arrayBuffer();
          perRole[role] = (perRole[role] ?? 0) + 1;
          const name = `GET ${address} as ${role} (${res.status}, Cache-Control: ${res.headers.get("cache-control")}, Vary: ${res.headers.get("vary")})`;
          if (res.status >= 500) wrong.push(`${name}: a server error`);
          // A public page from the page cache: the role's copy, the same for everyone of that role.
          if (fromPageCache(res)) {
            kept++;
            if (route.audience !== "public" || res.headers.get("cache-control") !== "no-cache")
              wrong.push(`${name}: served from the public page cache`);
            continue;
          }
          // The search engines' files are the same for everyone.
          if (route.audience === "other" && /\bpublic\b/.test(res.headers.get("cache-control") ?? "")) continue;
          if (!isPrivate(res)) wrong.push(name);
        }
      }
    }
    console.info(
      `private answers: ${Object.values(perRole).reduce((a, b) => a + b, 0)} answers over ${routes.length} routes (${JSON.stringify(perRole)}), ${kept} public pages from the page cache, ${wrong.length} wrong`,
    );
    expect(wrong).toEqual([]);
  }, 600_000);

  it("the REST answers, signed in as each role: private, no-store, Vary: Cookie", async () => {
    const wrong: string[] = [];
    let checked = 0;
    for (const [role, jar] of Object.entries(jars)) {
      for (const route of apiRoutes(app.services).filter((r) => r.method === "get")) {
        const path = `/api${route.path.replace(/:(\w+)/g, (_m, p: string) => (p === "orderNumber" ? ids.paidNumber : ids.paid))}`;
        const res = await app.request(path, { jar });
        await res.arrayBuffer();
        checked++;
        if (!isPrivate(res))
          wrong.push(
            `GET ${path} as ${role} (${res.status}): ${res.headers.get("cache-control")} / ${res.headers.get("vary")}`,
          );
      }
    }
    for (const call of ["/api/auth/get-session"]) {
      const res = await app.request(call, { jar: jars.customer });
      await res.arrayBuffer();
      checked++;
      if (!isPrivate(res)) wrong.push(`GET ${call}: ${res.headers.get("cache-control")} / ${res.headers.get("vary")}`);
    }
    console.info(`private REST answers: ${checked} checked, ${wrong.length} wrong`);
    expect(wrong).toEqual([]);
  }, 300_000);

  it("the answer that signs a person in (it sets the session cookie) is private too", async () => {
    await app.db.pool.query("delete from rate_limiter");
    const res = await app.request("/login", {
      method: "POST",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: new URLSearchParams({ email: "private-customer@example.org", password: "quiet-harbour-71" }).toString(),
    });
    await res.arrayBuffer();
    expect(res.status).toBe(302);
    expect(res.headers.getSetCookie().length).toBeGreaterThan(0);
    expect(isPrivate(res)).toBe(true);
  });
});

describe("public pages", () => {
  it("keep their cache: a visitor and a signed-in person get the page cache's copy of each, revalidated by its ETag", async () => {
    for (const jar of [undefined, jars.customer, jars.admin]) {
      for (const page of new Set(Object.values(pages).map((p) => p.path))) {
        const res = await app.request(page, { jar });
        await res.arrayBuffer();
        expect(res.status, page).toBe(200);
        expect(res.headers.get("cache-control"), page).toBe("no-cache");
        expect(res.headers.get("etag"), page).toBeTruthy();
        expect(fromPageCache(res), page).toBe(true);
      }
    }
  });
});
