import { randomUUID } from "node:crypto";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { apiRoutes } from "../../server/http/routes";
import { demoContent } from "../../server/seed/demo-content";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Issue 12, part 3: the REST route × role matrix with the fourth role the outside probe used, another customer.
 * Generated from the route table, so a new call is covered without anyone remembering to. (admin-api.test.ts checks
 * the admin calls' successes with real bodies; this one checks who is refused, on every call.)
 */
let app: TestApp;
const jars = {
  visitor: undefined as CookieJar | undefined,
  customer: new CookieJar(),
  other: new CookieJar(),
  admin: new CookieJar(),
};
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
    // The admin goes last, on random ids, so that its writes cannot remove the records the others are tested on.
    for (const role of ["visitor", "other", "customer", "admin"] as const) {
      for (const route of routes) {
        const path = route.path.replace(/:id\b/g, role === "admin" ? randomUUID() : orderId);
        const res = await app.request(`/api${path}`, {
          method: route.method.toUpperCase(),
          json: route.method === "get" ? undefined : {},
          jar: jars[role],
        });
        await res.arrayBuffer();
        checks++;
        const name = `${route.method.toUpperCase()} ${route.path} as ${role}: ${res.status}`;
        if (res.status >= 500) errors.push(name);
        const refused = res.status === 401 || res.status === 403;
        if (route.access === "admin" && role !== "admin" && !refused) leaks.push(name);
        if (route.access === "user" && role === "visitor" && res.status !== 401) leaks.push(name);
        if (route.access !== "public" && role !== "visitor" && res.status === 401) errors.push(`${name} (signed in)`);
        if (route.access === "admin" && role === "admin" && refused) errors.push(name);
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
    console.info(`route × role matrix (REST): ${checks} checks over ${routes.length} calls, ${leaks.length} leaks`);
    expect(leaks).toEqual([]);
    expect(errors).toEqual([]);
  });
});
