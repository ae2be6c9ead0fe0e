import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { customerFiltersFromSearch } from "#domain/customers.ts";
import { dayKey } from "#domain/dates.ts";
import { ERASED_NAME } from "#domain/privacy.ts";
import { addDays } from "#domain/reports.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { ERASED_NO_GRANT } from "#server/services/customers.ts";
import type { ExportTable } from "#server/services/exports.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import type { CookieJar } from "../support/session";

/**
 * Issue 33, items 9 and 12, on the real database: a customer's display name (their account's name, else the name on
 * their latest order) in the customers list, record and search; the orders desk found by an invoice number; an erased
 * customer shown as "Erased customer" and counted nowhere as a member.
 */
let app: TestApp;
let admin: CookieJar;
let pkg: { _id: string };
const activeOnly = new URLSearchParams({ state: "active" });

type Row = { id: string; name: string; email: string | null; state: string; membershipEnds: string | null };

async function customers(query: string): Promise<{ rows: Row[]; total: string | null }> {
  const res = await app.request(`/api/customers?${query}`, { jar: admin });
  expect(res.status, query).toBe(200);
  return { rows: (await res.json()) as Row[], total: res.headers.get("x-total-count") };
}
async function place(jar: CookieJar, customerName: string): Promise<{ id: string; number: string }> {
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId: pkg._id, customerName, customerAddress: "4 Fjord Lane", customerCountry: "Norway" },
    jar,
  });
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { insertedId: string }).insertedId;
  const { rows } = await app.db.pool.query("select number from orders where id = $1", [id]);
  return { id, number: rows[0].number as string };
}
const put = (path: string, json: unknown) => app.request(path, { method: "PUT", json, jar: admin });
const idOf = async (email: string) => (await app.services.accounts.userByEmail(email))!.id;

beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-1" });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  pkg = ((await (await app.request("/api/pricings")).json()) as (typeof pkg)[])[0]!;
  admin = await signInAsAdmin(app);
});
afterAll(() => app?.close());

describe("a customer's display name (item 9)", () => {
  it("is their account's name if set, else the name on their latest order: list, record and search", async () => {
    const ingrid = await signUp(app, "i.s@example.org"); // no name on the account
    await place(ingrid, "Ingrid Berg");
    await place(ingrid, "Ingrid Solberg");
    const last = await place(ingrid, "Ingrid Solberg");
    const id = await idOf("i.s@example.org");
    const named = await signUp(app, "karl@example.org", { name: "Karl Account" });
    await place(named, "Karl Ordername");

    const { rows } = await customers("q=solberg");
    expect(rows.map((r) => [r.id, r.name, r.email])).toEqual([[id, "Ingrid Solberg", "i.s@example.org"]]);
    // A name only an older order carries finds her too; the account's name wins over any order's.
    expect((await customers("q=Ingrid%20Berg")).rows.map((r) => r.name)).toEqual(["Ingrid Solberg"]);
    expect((await customers("q=ordername")).rows.map((r) => r.name)).toEqual(["Karl Account"]);
    const record = (await (await app.request(`/api/customers/${id}`, { jar: admin })).json()) as { name: string };
    expect(record.name).toBe("Ingrid Solberg");
    // The name follows her latest order, and sorting by name reads it.
    await app.db.pool.query("update orders set customer_name = 'Ingrid Solberg-Dahl' where id = $1", [last.id]);
    expect((await customers("q=solberg")).rows.map((r) => r.name)).toEqual(["Ingrid Solberg-Dahl"]);
    await signUp(app, "hans@example.org", { name: "Hans Account" });
    const sorted = (await customers("sort=name")).rows.map((r) => r.name);
    expect(sorted.filter((n) => ["Hans Account", "Ingrid Solberg-Dahl", "Karl Account"].includes(n))).toEqual([
      "Hans Account",
      "Ingrid Solberg-Dahl",
      "Karl Account",
    ]);
  });

  it("the orders desk finds an order by its invoice number, in any case", async () => {
    const jar = await signUp(app, "inv@example.org", { name: "Ivo Invoice" });
    const order = await place(jar, "Ivo Invoice");
    expect((await put(`/api/order/${order.id}`, { paymentStatus: "Paid" })).status).toBe(200);
    const { rows } = await app.db.pool.query("select invoice_number from orders where id = $1", [order.id]);
    const invoice = rows[0].invoice_number as string;
    expect(invoice).toMatch(/^INV-/);
    for (const typed of [invoice, ` ${invoice.toLowerCase()} `]) {
      const res = await app.request(`/api/orders?q=${encodeURIComponent(typed)}`, { jar: admin });
      expect(res.status).toBe(200);
      expect(((await res.json()) as { _id: string }[]).map((o) => o._id)).toEqual([order.id]);
    }
  });
});

describe("an erased customer (item 12)", () => {
  it("is listed as Erased customer without the placeholder address, and counted nowhere as a member", async () => {
    const jar = await signUp(app, "gone@example.org", { name: "Gunnhild Gone" });
    const order = await place(jar, "Gunnhild Gone");
    expect((await put(`/api/order/${order.id}`, { paymentStatus: "Paid" })).status).toBe(200);
    expect((await put(`/api/order-status/${order.id}`, { orderStatus: "Delivered" })).status).toBe(200);
    const id = await idOf("gone@example.org");
    const before = await customers("state=active");
    expect(before.rows.map((r) => r.id)).toContain(id);
    const owner = (await app.services.accounts.userByEmail("owner@example.org"))!;
    await app.services.privacy.eraseCustomer(id, { id: owner.id, email: owner.email });

    const all = (await customers("")).rows.find((r) => r.id === id)!;
    expect(all).toMatchObject({ name: ERASED_NAME, email: null, state: "erased", membershipEnds: null });
    for (const state of ["active", "ending-soon", "waiting", "expired", "never-paid"]) {
      const { rows, total } = await customers(`state=${state}`);
      expect(
        rows.map((r) => r.id),
        state,
      ).not.toContain(id);
      if (state === "active") expect(Number(total)).toBe(Number(before.total) - 1);
    }
    const record = (await (await app.request(`/api/customers/${id}`, { jar: admin })).json()) as Record<
      string,
      unknown
    >;
    expect(record).toMatchObject({ name: ERASED_NAME, email: null, state: "erased" });
    expect(JSON.stringify(record)).not.toContain("erased.invalid");
    // Nobody to give days to.
    const grant = await app.request(`/api/customers/${id}/membership`, {
      method: "POST",
      json: { days: 10, reason: "A thank-you" },
      jar: admin,
    });
    expect(grant.status).toBe(409);
    expect(JSON.stringify(await grant.json())).toContain(ERASED_NO_GRANT);
    // The desk's row and the invoice name no placeholder address either.
    const desk = await app.request(`/api/orders?q=${order.number}`, { jar: admin });
    const [row] = (await desk.json()) as { customerEmail: string; customerName: string }[];
    expect(row).toMatchObject({ customerName: ERASED_NAME, customerEmail: "" });
  });

  it("leaves every member count: reports (past days too, CSV and REST), Today, the list's filters and its CSV", async () => {
    const jar = await signUp(app, "left@example.org", { name: "Liv Left" });
    const order = await place(jar, "Liv Left");
    expect((await put(`/api/order/${order.id}`, { paymentStatus: "Paid" })).status).toBe(200);
    expect((await put(`/api/order-status/${order.id}`, { orderStatus: "Delivered" })).status).toBe(200);
    const id = await idOf("left@example.org");
    // Paid and delivered so long ago that her window ends in 3 days: a member on each day since, and "ending soon".
    const { rows: ago } = await app.db.pool.query<{ days: number }>(
      `update orders set created_at = t.at, paid_at = t.at, delivered_at = t.at, membership_starts = t.at,
              membership_valid = t.at + package_validity * interval '1 day'
       from (select now() - (package_validity - 3) * interval '1 day' as at from orders where id = $1) t
       where id = $1 returning package_validity - 3 as days`,
      [order.id],
    );
    const days = ago[0]!.days;
    const today = dayKey(new Date(), app.config.timeZone);
    const from = addDays(today, -days - 2);
    const report = async (name: string) => {
      const res = await app.request(`/api/reports/${name}?from=${from}&to=${today}`, { jar: admin });
      expect(res.status, name).toBe(200);
      return ((await res.json()) as { rows: unknown[][] }).rows;
    };
    // The CSV downloads (pages' resource routes, not served here) stream these same tables.
    const rowsOf = async (table: ExportTable) => (await table.rows.toArray()) as unknown[][];
    const reportCsv = async (name: "active-members") => {
      const period = app.services.reports.period({ from, to: today });
      if (!period.ok) throw new Error("period");
      return rowsOf(app.services.reports.table(name, await app.services.reports.of(period.data)));
    };
    const members = async () => (await report("active-members")).map((r) => Number(r[r.length - 1]));
    const listCsv = async () =>
      JSON.stringify(await rowsOf(await app.services.customers.csv(customerFiltersFromSearch(activeOnly))));
    const ending = async () => (await app.services.backOffice.today("Admin")).endingSoon!;

    const membersBefore = await members();
    const csvBefore = await reportCsv("active-members");
    const revenueBefore = await report("revenue");
    const newBefore = await report("new-customers");
    const endingBefore = await ending();
    expect(endingBefore.first.map((m) => m.userId)).toContain(id);
    expect(await listCsv()).toContain("left@example.org");
    expect(membersBefore.slice(2).every((n) => n >= 1)).toBe(true);

    const owner = (await app.services.accounts.userByEmail("owner@example.org"))!;
    await app.services.privacy.eraseCustomer(id, { id: owner.id, email: owner.email });

    // One member fewer on each of her days, the past ones included; the days before her window unchanged.
    const membersAfter = await members();
    expect(membersAfter.slice(0, 2)).toEqual(membersBefore.slice(0, 2));
    expect(membersAfter.slice(2)).toEqual(membersBefore.slice(2).map((n) => n - 1));
    expect((await reportCsv("active-members")).map((r) => Number(r[r.length - 1]))).toEqual(membersAfter);
    expect(csvBefore.map((r) => Number(r[r.length - 1]))).toEqual(membersBefore);
    // The money and the orders stay (decision 045).
    expect(await report("revenue")).toEqual(revenueBefore);
    expect(await report("new-customers")).toEqual(newBefore);
    const endingAfter = await ending();
    expect(endingAfter.first.map((m) => m.userId)).not.toContain(id);
    expect(endingAfter.total).toBe(endingBefore.total - 1);
    const csv = await listCsv();
    expect(csv).not.toContain(id);
    expect(csv).not.toContain(ERASED_NAME);
    expect(csv).not.toContain("erased.invalid");
    // Rebuilding the tallies (a change of the site's zone) counts her out the same way.
    await app.db.pool.query("select report_tallies_rebuild($1)", [app.config.timeZone]);
    expect(await members()).toEqual(membersAfter);
  });
});
