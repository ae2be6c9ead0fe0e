import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS } from "#domain/membership.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { CUSTOMER_PASSWORD, signIn, signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * The customers list and record (issue 26, part 2) through their REST calls, on the real database: search, each
 * membership state, sorts, paging, CSV; giving days (exactly N after the current window, one order per key), a bank
 * transfer, the note, signing out everywhere, a mail sent again; every call as each role.
 */
let app: TestApp;
let clock = new Date("2026-11-25T12:00:00Z");
const T0 = new Date("2026-11-25T12:00:00Z");
let admin: CookieJar;
let editor: CookieJar;
const jars: Record<string, CookieJar> = {};
const ids: Record<string, string> = {};
const orderOf: Record<string, { id: string; number: string }> = {};
let pkg: { _id: string; packagePrice: number; packageValidity: number };

type Row = {
  id: string;
  name: string;
  email: string;
  state: string;
  endingSoon: boolean;
  membershipEnds: string | null;
};

const call = (path: string, init: { method?: string; json?: unknown; jar?: CookieJar; headers?: HeadersInit } = {}) =>
  app.request(path, { jar: admin, ...init });
async function list(query: string): Promise<{ rows: Row[]; total: string | null; pages: string | null }> {
  const res = await call(`/api/customers?${query}`);
  expect(res.status, query).toBe(200);
  return {
    rows: (await res.json()) as Row[],
    total: res.headers.get("x-total-count"),
    pages: res.headers.get("x-pages"),
  };
}
const names = async (query: string) => (await list(query)).rows.map((r) => r.name).sort();

async function place(who: string): Promise<{ id: string; number: string }> {
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId: pkg._id, customerName: who, customerAddress: "1 Quay", customerCountry: "UK" },
    jar: jars[who],
  });
  expect(res.status).toBe(201);
  const id = ((await res.json()) as { insertedId: string }).insertedId;
  const [row] = (await app.db.pool.query("select number from orders where id = $1", [id])).rows as { number: string }[];
  return { id, number: row!.number };
}
const setPaid = (id: string) => call(`/api/order/${id}`, { method: "PUT", json: { paymentStatus: "Paid" } });
const deliver = (id: string) => call(`/api/order-status/${id}`, { method: "PUT", json: { orderStatus: "Delivered" } });
const give = (who: string, days: unknown, key?: string) =>
  call(`/api/customers/${ids[who]}/membership`, {
    method: "POST",
    json: { days, reason: "A thank-you" },
    headers: key ? { "Idempotency-Key": key } : {},
  });
const endOf = async (who: string) =>
  ((await (await call(`/api/customers/${ids[who]}`)).json()) as { membership: { expiresAt?: string } }).membership
    .expiresAt;

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "owner@example.org", ADMIN_PASSWORD: "owner-pass-1", TZ: "Europe/London" },
    { now: () => clock },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  pkg = ((await (await app.request("/api/pricings")).json()) as (typeof pkg)[])[0]!;
  admin = await signInAsAdmin(app);
  editor = await signUpStaff(app, app.db.pool, "editor@example.org", "Editor");
  for (const who of ["Ada Active", "Ben Soon", "Cleo Waiting", "Dan Expired", "Eve Unpaid", "Fay Nothing"]) {
    const email = `${who.split(" ")[0]!.toLowerCase()}@example.org`;
    jars[who] = await signUp(app, email, { name: who });
    const [u] = (await app.db.pool.query(`select id from "user" where email = $1`, [email])).rows as { id: string }[];
    ids[who] = u!.id;
  }
  // Dan had two days, ten days ago: expired now.
  clock = new Date(T0.getTime() - 10 * DAY_MS);
  expect((await give("Dan Expired", 2)).status).toBe(201);
  clock = T0;
  orderOf.ada = await place("Ada Active");
  await setPaid(orderOf.ada.id);
  await deliver(orderOf.ada.id);
  expect((await give("Ben Soon", 5)).status).toBe(201);
  orderOf.cleo = await place("Cleo Waiting");
  await setPaid(orderOf.cleo.id);
  orderOf.eve = await place("Eve Unpaid");
});
afterAll(() => app?.close());

describe("the list", () => {
  it("filters by each membership state, from the stored windows (staff are never listed)", async () => {
    expect(await names("state=active")).toEqual(["Ada Active", "Ben Soon"]);
    expect(await names("state=ending-soon")).toEqual(["Ben Soon"]);
    expect(await names("state=waiting")).toEqual(["Cleo Waiting"]);
    expect(await names("state=expired")).toEqual(["Dan Expired"]);
    expect(await names("state=never-paid")).toEqual(["Eve Unpaid", "Fay Nothing"]);
    const all = await list("limit=100");
    expect(all.rows.map((r) => r.email)).not.toContain("owner@example.org");
    expect(all.rows.map((r) => r.email)).not.toContain("editor@example.org");
    expect(all.total).toBe("6");
    const ben = all.rows.find((r) => r.name === "Ben Soon")!;
    expect(ben).toMatchObject({ state: "active", endingSoon: true });
  });

  it("finds a customer by a piece of the name or email, by an order number, whole or in part", async () => {
    expect(await names("q=cleo")).toEqual(["Cleo Waiting"]);
    expect(await names("q=EVE%40EXAMPLE")).toEqual(["Eve Unpaid"]);
    expect(await names(`q=${orderOf.ada!.number}`)).toEqual(["Ada Active"]);
    expect(await names(`q=${orderOf.ada!.number.toLowerCase()}`)).toEqual(["Ada Active"]);
    const tail = orderOf.eve!.number.slice(-5);
    expect(await names(`q=${tail}`)).toContain("Eve Unpaid");
    expect(await names("q=nobody-like-this")).toEqual([]);
    expect(await names("q=100%25")).toEqual([]);
  });

  it("sorts by name, membership end and total spent, and pages in SQL", async () => {
    const byName = (await list("sort=name&limit=100")).rows.map((r) => r.name);
    expect(byName).toEqual([...byName].sort((a, b) => a.localeCompare(b)));
    const byEnd = (await list("sort=membership-end&limit=3")).rows.map((r) => r.name);
    expect(byEnd).toEqual(["Ada Active", "Ben Soon", "Dan Expired"]);
    const bySpent = (await list("sort=spent&limit=100")).rows.map((r) => r.name);
    expect(bySpent.slice(0, 2).sort()).toEqual(["Ada Active", "Cleo Waiting"]);
    const first = await list("sort=name&limit=4");
    const second = await list("sort=name&limit=4&page=2");
    expect(first.pages).toBe("2");
    expect([...first.rows, ...second.rows].map((r) => r.name)).toEqual(byName);
    // A page past the end is the last one.
    expect((await list("sort=name&limit=4&page=9")).rows.map((r) => r.name)).toEqual(second.rows.map((r) => r.name));
  });

  it("refuses an unknown state or sort with the field named", async () => {
    for (const q of ["state=gold", "sort=age", `q=${"x".repeat(101)}`]) {
      const res = await call(`/api/customers?${q}`);
      expect(res.status, q).toBe(400);
    }
  });

  it("exports the list's customers as CSV rows, with their state", async () => {
    const table = await app.services.customers.csv({ state: "active", sort: "name" });
    const rows: unknown[][] = [];
    for await (const row of table.rows) rows.push(row as unknown[]);
    // The import's own columns first (decision 079), then the figures.
    expect(table.header.slice(0, 2)).toEqual(["Email", "Name"]);
    expect(rows.map((r) => r[1])).toEqual(["Ada Active", "Ben Soon"]);
    expect(rows[1]![6]).toBe("Active, ending soon");
    expect(rows[0]![8]).toBe(pkg.packagePrice.toFixed(2));
  });
});

describe("the record's actions", () => {
  it("gives days exactly after the current window, one order per key, mailed once", async () => {
    // An unpaid order of theirs (no window) must not hide the package whose membership is extended.
    await place("Ada Active");
    const before = await endOf("Ada Active");
    expect(before).toBeTruthy();
    const key = "grant-ada-1";
    const first = await give("Ada Active", 10, key);
    expect(first.status).toBe(201);
    const body = (await first.json()) as { insertedId: string; created: boolean; membershipEnds: string };
    expect(body.created).toBe(true);
    expect(new Date(body.membershipEnds).getTime()).toBe(new Date(before!).getTime() + 10 * DAY_MS);
    const again = await give("Ada Active", 10, key);
    expect(again.status).toBe(201);
    expect(((await again.json()) as { insertedId: string; created: boolean }).created).toBe(false);
    expect(await endOf("Ada Active")).toBe(body.membershipEnds);
    const { rows } = await app.db.pool.query(
      "select payment_method, payment_reference, package_price::float8 as price, package_validity from orders where user_id = $1 and payment_method = 'Gift'",
      [ids["Ada Active"]],
    );
    expect(rows).toEqual([
      { payment_method: "Gift", payment_reference: "A thank-you", price: 0, package_validity: 10 },
    ]);
    // An extension keeps the package's name (the dashboard goes on naming it), not a name of its own.
    const names_ = await app.db.pool.query(
      "select payment_method, package_name from orders where user_id = $1 and payment_status = 'Paid' order by created_at",
      [ids["Ada Active"]],
    );
    expect(names_.rows.map((r) => r.package_name)).toEqual([names_.rows[0].package_name, names_.rows[0].package_name]);
    const mails = await app.db.pool.query("select key from job_keys where key = $1", [
      `order:${body.insertedId}:given`,
    ]);
    expect(mails.rowCount).toBe(1);
    // The customer's dashboard reads the same end.
    const summary = await app.services.orders.summary({ id: ids["Ada Active"]!, isAdmin: false } as never);
    expect(summary.membership).toMatchObject({ state: "active", expiresAt: new Date(body.membershipEnds) });
  });

  it("refuses days out of 1–3650, or no reason, naming the field", async () => {
    for (const [days, field] of [
      [0, "days"],
      [3651, "days"],
      ["ten", "days"],
      [1.5, "days"],
    ] as const) {
      const res = await give("Fay Nothing", days);
      expect(res.status, String(days)).toBe(400);
      expect(JSON.stringify(await res.json())).toContain(field);
    }
    const noReason = await call(`/api/customers/${ids["Fay Nothing"]}/membership`, {
      method: "POST",
      json: { days: 3 },
    });
    expect(noReason.status).toBe(400);
    expect(await names("state=never-paid")).toContain("Fay Nothing");
  });

  it("records a bank transfer on an unpaid order, once, and only on that customer's orders", async () => {
    const path = `/api/customers/${ids["Eve Unpaid"]}/bank-transfer`;
    const other = await call(path, { method: "POST", json: { orderId: orderOf.ada!.id, reference: "X" } });
    expect(other.status).toBe(404);
    const noRef = await call(path, { method: "POST", json: { orderId: orderOf.eve!.id, reference: " " } });
    expect(noRef.status).toBe(400);
    const res = await call(path, {
      method: "POST",
      json: { orderId: orderOf.eve!.id, reference: "BACS 7731", activate: true },
    });
    expect(res.status).toBe(200);
    expect(((await res.json()) as { membershipValid: string }).membershipValid).toBeTruthy();
    const [row] = (
      await app.db.pool.query(
        "select payment_status, order_status, payment_method, payment_reference from orders where id = $1",
        [orderOf.eve!.id],
      )
    ).rows;
    expect(row).toEqual({
      payment_status: "Paid",
      order_status: "Delivered",
      payment_method: "Bank transfer",
      payment_reference: "BACS 7731",
    });
    expect(await names("state=active")).toContain("Eve Unpaid");
    const twice = await call(path, { method: "POST", json: { orderId: orderOf.eve!.id, reference: "BACS 7731" } });
    expect(twice.status).toBe(409);
    const log = await app.db.pool.query(
      "select actor_email from activity_log where entity = 'order' and record_id = $1 and changes ? 'paymentStatus'",
      [orderOf.eve!.id],
    );
    expect(log.rows.map((r) => r.actor_email)).toContain("owner@example.org");
  });

  it("keeps a private note, audited with its before and after", async () => {
    const path = `/api/customers/${ids["Cleo Waiting"]}/note`;
    expect((await call(path, { method: "PUT", json: { note: "Prefers calls" } })).status).toBe(200);
    expect((await call(path, { method: "PUT", json: { note: "Prefers mail" } })).status).toBe(200);
    const record = (await (await call(`/api/customers/${ids["Cleo Waiting"]}`)).json()) as {
      note: string;
      activity: { changes: { field: string; before: string; after: string }[] }[];
    };
    expect(record.note).toBe("Prefers mail");
    expect(record.activity[0]!.changes).toEqual([
      expect.objectContaining({ field: "note", before: "Prefers calls", after: "Prefers mail" }),
    ]);
    expect((await call(path, { method: "PUT", json: { note: 42 } })).status).toBe(400);
    expect((await call(path, { method: "PUT", json: { note: "" } })).status).toBe(200);
    expect(((await (await call(`/api/customers/${ids["Cleo Waiting"]}`)).json()) as { note: string }).note).toBe("");
  });

  it("signs a customer out everywhere", async () => {
    const second = await signIn(app, "fay@example.org", CUSTOMER_PASSWORD);
    for (const jar of [jars["Fay Nothing"]!, second]) expect((await app.request("/api/me", { jar })).status).toBe(200);
    const res = await call(`/api/customers/${ids["Fay Nothing"]}/sign-out`, { method: "POST" });
    expect(await res.json()).toEqual({ sessions: 2 });
    for (const jar of [jars["Fay Nothing"]!, second]) expect((await app.request("/api/me", { jar })).status).toBe(401);
  });

  it("sends an order's mail again: the receipt of a paid order, not a gift's", async () => {
    const path = `/api/customers/${ids["Cleo Waiting"]}/resend-mail`;
    const res = await call(path, { method: "POST", json: { orderId: orderOf.cleo!.id } });
    expect(await res.json()).toMatchObject({ sent: true, what: `Payment received · ${orderOf.cleo!.number}` });
    const gift = (
      await app.db.pool.query("select id from orders where user_id = $1 and payment_method = 'Gift'", [ids["Ben Soon"]])
    ).rows[0] as { id: string };
    const refused = await call(`/api/customers/${ids["Ben Soon"]}/resend-mail`, {
      method: "POST",
      json: { orderId: gift.id },
    });
    expect(refused.status).toBe(409);
  });

  it("shows the record: timeline from the orders, orders, mails, activity; staff and unknown ids are not customers", async () => {
    const res = await call(`/api/customers/${ids["Ada Active"]}`);
    const r = (await res.json()) as {
      timeline: { number: string; ends: string }[];
      orders: { paymentMethod: string | null }[];
      mails: { subject: string }[];
      totalSpent: number;
    };
    expect(r.timeline).toHaveLength(2);
    expect(r.timeline[1]!.ends).toBe(await endOf("Ada Active"));
    expect(r.orders.map((o) => o.paymentMethod).sort()).toEqual(["By hand", "Gift", null]);
    expect(r.mails.map((m) => m.subject)).toContainEqual(expect.stringMatching(/^Your membership now runs until /));
    expect(r.totalSpent).toBe(pkg.packagePrice);
    const [staff] = (await app.db.pool.query(`select id from "user" where email = 'editor@example.org'`)).rows as {
      id: string;
    }[];
    expect((await call(`/api/customers/${staff!.id}`)).status).toBe(404);
    expect((await call(`/api/customers/no-such-id`)).status).toBe(404);
  });

  it("keeps each customer's figures right whoever writes orders (the triggers)", async () => {
    await app.db.pool.query("update orders set payment_status = 'Refunded' where id = $1", [orderOf.cleo!.id]);
    expect(await names("state=waiting")).toEqual([]);
    const { rows } = await app.db.pool.query(`
      select t.user_id from customer_totals t
      left join (select user_id, max(membership_valid) filter (where payment_status = 'Paid' and order_status = 'Delivered') ends,
                        coalesce(sum(package_price) filter (where payment_status = 'Paid'), 0) spent, count(*)::int n
                 from orders group by user_id) a on a.user_id = t.user_id
      where t.membership_ends is distinct from a.ends or t.spent <> a.spent or t.orders <> a.n`);
    expect(rows).toEqual([]);
  });
});

describe("who may call", () => {
  it("answers Admins; refuses Editors and customers (403) and visitors (401)", async () => {
    const id = ids["Fay Nothing"];
    const calls: [string, string, unknown?][] = [
      ["GET", "/api/customers"],
      ["GET", `/api/customers/${id}`],
      ["POST", `/api/customers/${id}/membership`, { days: 1, reason: "r" }],
      ["POST", `/api/customers/${id}/bank-transfer`, { orderId: orderOf.eve!.id, reference: "r" }],
      ["POST", `/api/customers/${id}/resend-mail`, { orderId: orderOf.eve!.id }],
      ["POST", `/api/customers/${id}/sign-out`],
      ["PUT", `/api/customers/${id}/note`, { note: "n" }],
    ];
    const customer = await signIn(app, "ben@example.org", CUSTOMER_PASSWORD);
    const before = (await app.db.pool.query("select count(*)::int n from orders")).rows[0].n;
    for (const [method, path, json] of calls) {
      for (const [jar, status] of [
        [editor, 403],
        [customer, 403],
        [new CookieJar(), 401],
      ] as const)
        expect((await app.request(path, { method, json, jar })).status, `${method} ${path}`).toBe(status);
    }
    expect((await app.db.pool.query("select count(*)::int n from orders")).rows[0].n).toBe(before);
    for (const [method, path, json] of calls) {
      const res = await app.request(path, { method, json, jar: admin });
      expect(res.status, `${method} ${path} as admin`).toBeLessThan(500);
      expect(res.status, `${method} ${path} as admin`).not.toBe(403);
    }
  });
});
