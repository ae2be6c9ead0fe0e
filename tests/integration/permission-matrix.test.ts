import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "#server/http/routes/index.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { can, STAFF_AREAS, type StaffArea, type StaffRole } from "#domain/capabilities.ts";
import { KEY_ACCESS } from "#domain/api-keys.ts";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Issue 12, part 3: the REST route × role matrix with the fourth role the outside probe used, another customer; issue
 * 25 adds the Editor (decision 036); issue 37 API keys of each staff area and access (decision 077). Generated from
 * the route table, so a new call is covered without anyone remembering to, and each staff role's expectation comes
 * from domain/capabilities.ts. (admin-api.test.ts checks the admin calls' successes with real bodies; this one checks
 * who is refused, on every call.)
 */
let app: TestApp;
const jars = {
  visitor: undefined as CookieJar | undefined,
  customer: new CookieJar(),
  other: new CookieJar(),
  editor: new CookieJar(),
  admin: new CookieJar(),
};
const STAFF: Partial<Record<keyof typeof jars, StaffRole>> = { editor: "Editor", admin: "Admin" };
let orderId = "";

beforeAll(async () => {
  app = await startTestApp({
    ADMIN_EMAIL: "matrix@example.org",
    ADMIN_PASSWORD: "matrix-pass-1",
    RATE_LIMIT_PUBLIC_FORMS: "100000",
  });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  for (const [jar, email] of [
    [jars.customer, "owner@example.org"],
    [jars.other, "intruder@example.org"],
  ] as const) {
    await signUp(app, email, { jar });
  }
  await signInAsAdmin(app, { jar: jars.admin });
  jars.editor = await signUpStaff(app, app.db.pool, "editor@example.org", "Editor");
  const [pkg] = (await (await app.request("/api/pricings")).json()) as { _id: string }[];
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId: pkg!._id, customerName: "O", customerAddress: "A", customerCountry: "UK" },
    jar: jars.customer,
  });
  orderId = ((await res.json()) as { insertedId: string }).insertedId;
});
afterAll(() => app?.close());

describe("the REST route × role matrix", () => {
  it("every call refuses the roles it is not for, hides a customer's records from another, and never answers 5xx", async () => {
    const routes = apiRoutes(app.services);
    let checks = 0;
    const leaks: string[] = [];
    const errors: string[] = [];
    const perRole: Record<string, number> = {};
    // Staff go last, on random ids, so that their writes cannot remove the records the others are tested on.
    for (const role of ["visitor", "other", "customer", "editor", "admin"] as const) {
      const staffRole = STAFF[role];
      for (const route of routes) {
        const path = route.path.replace(/:id\b/g, staffRole ? randomUUID() : orderId);
        const res = await app.request(`/api${path}`, {
          method: route.method.toUpperCase(),
          json: route.method === "get" ? undefined : {},
          jar: jars[role],
        });
        await res.arrayBuffer();
        checks++;
        perRole[role] = (perRole[role] ?? 0) + 1;
        const name = `${route.method.toUpperCase()} ${route.path} as ${role}: ${res.status}`;
        if (res.status >= 500) errors.push(name);
        const refused = res.status === 401 || res.status === 403;
        // Whether this role may use this call: a back-office call by the area its role opens; a customer call with an
        // area refuses the staff whose role does not open it.
        const area = route.access === "public" ? undefined : route.area;
        const opens = staffRole !== undefined && area !== undefined && can(staffRole, area);
        const allowed =
          route.access === "public" ||
          (route.access === "user" && role !== "visitor" && (!staffRole || !area || opens)) ||
          (route.access === "staff" && opens);
        if (!allowed && !refused) leaks.push(name);
        if (route.access === "user" && role === "visitor" && res.status !== 401) leaks.push(name);
        if (route.access !== "public" && role !== "visitor" && res.status === 401) errors.push(`${name} (signed in)`);
        // Staff are never refused what their role opens (a customer may be: the catalogue wants a membership).
        if (staffRole && allowed && route.access !== "public" && refused) errors.push(name);
        // The customer's order, asked for by another customer: not found, whatever the call.
        if (route.access === "user" && role === "other" && route.path.includes(":id") && res.status < 400)
          leaks.push(name);
      }
      // Every call another customer tried left the customer's order as it was.
      if (role === "other") {
        expect(
          (await app.db.pool.query("select payment_status, order_status from orders where id = $1", [orderId])).rows,
        ).toEqual([{ payment_status: "UnPaid", order_status: "Pending" }]);
      }
    }
    console.info(
      `route × role matrix (REST): ${checks} checks over ${routes.length} calls (${JSON.stringify(perRole)}), ${leaks.length} leaks`,
    );
    // The editor's done-criterion (issue 25): no orders.
    const editorOrders = await app.request("/api/orders", { jar: jars.editor });
    expect(editorOrders.status).toBe(403);
    expect(leaks).toEqual([]);
    expect(errors).toEqual([]);
  }, 120_000);
});

describe("the REST route × API key matrix (decision 077)", () => {
  it("every call admits a key holding its area, with the access it needs, and refuses every other key", async () => {
    const routes = apiRoutes(app.services);
    const actor = { id: "matrix", email: "matrix@example.org" };
    // For each area and access, a key of that area alone and a key of every area but it: a call of area X must admit
    // the first (when its access allows) and refuse the second, whatever other areas a key holds.
    const keys = new Map<string, { secret: string; areas: readonly StaffArea[] }>();
    const keyOf = async (areas: readonly StaffArea[], access: (typeof KEY_ACCESS)[number]) => {
      const name = `${access}: ${areas.join(" ")}`;
      let key = keys.get(name);
      if (!key) {
        const { secret } = await app.services.apiKeys.create({ name: name.slice(0, 80), areas, access }, actor);
        key = { secret, areas };
        keys.set(name, key);
      }
      return key;
    };
    const leaks: string[] = [];
    const errors: string[] = [];
    let checks = 0;
    for (const route of routes) {
      const routeArea = "area" in route ? route.area : undefined;
      const area = routeArea ?? STAFF_AREAS[0]!;
      for (const access of KEY_ACCESS) {
        for (const areas of [[area], STAFF_AREAS.filter((a) => a !== area)]) {
          const key = await keyOf(areas, access);
          const res = await app.request(`/api${route.path.replace(/:id\b/g, randomUUID())}`, {
            method: route.method.toUpperCase(),
            json: route.method === "get" ? undefined : {},
            headers: { authorization: `Bearer ${key.secret}` },
          });
          const body = await res.text();
          checks++;
          const held = areas.length === 1 ? `${area} alone` : `every area but ${area}`;
          const name = `${route.method.toUpperCase()} ${route.path} with a ${access} key of ${held}: ${res.status}`;
          // From the route table: a call a person must make (a customer call without an area, or marked noKeys) is
          // no key's; a staff or customer call with an area is the key's if it holds that area; a read-only key reads.
          const needsPerson = route.noKeys === true || (route.access === "user" && !routeArea);
          const ofItsArea = route.access === "public" || (routeArea !== undefined && key.areas.includes(routeArea));
          const allowed = !needsPerson && ofItsArea && (route.method === "get" || access === "write");
          // 401 is for an unknown key only (a public call may still ask for its own secret: the mail webhooks).
          if (res.status >= 500 || (res.status === 401 && route.access !== "public")) errors.push(name);
          if (allowed && res.status === 403) errors.push(`${name} (refused what it may do)`);
          if (!allowed && res.status !== 403) leaks.push(name);
          // Refused for its area: the answer names the area it lacks.
          if (!allowed && !needsPerson && !ofItsArea) {
            const named = (JSON.parse(body) as { area?: string }).area;
            if (named !== routeArea) errors.push(`${name} (names ${named} instead of ${routeArea})`);
          }
        }
      }
    }
    console.info(
      `route × key matrix (REST): ${checks} checks over ${routes.length} calls with ${keys.size} keys (each area alone and every area but it, × ${KEY_ACCESS.length} accesses), ${leaks.length} leaks`,
    );
    expect(leaks).toEqual([]);
    expect(errors).toEqual([]);
  }, 300_000);
});
