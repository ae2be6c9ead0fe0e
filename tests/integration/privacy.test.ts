import { buffer } from "node:stream/consumers";
import { createOTP } from "@better-auth/utils/otp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { csvStream } from "#app/lib/csv.server.ts";
import { DELETE_MESSAGES, ERASED_NAME, erasedEmail } from "#domain/privacy.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import { ALREADY_ERASED, LAST_ADMIN_DELETE, STAFF_NOT_ERASED } from "#server/services/privacy.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { attemptSignIn, CUSTOMER_PASSWORD, signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Issue 25, part 1: the rights of access and erasure (decision 045) against the real database. The erasure is checked
 * the hard way: every text and JSON column of every table (ours and the job queue's) is searched for the person's
 * email, name and address, so a table added later that keeps them fails here.
 */
let app: TestApp;
const admin = new CookieJar();
let customer: CookieJar;
let userId = "";
const EMAIL = "ada.lovelace@example.org";
const NAME = "Ada Lovelace";
const ADDRESS = "12 Analytical Row, London";
const orderIds: string[] = [];
let packageId = "";

const adminActor = async () => {
  const u = await app.services.accounts.userByEmail("owner@example.org");
  return { id: u!.id, email: u!.email };
};

async function placeOrder(jar: CookieJar, name = NAME): Promise<string> {
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: { packageId, customerName: name, customerAddress: ADDRESS, customerCountry: "United Kingdom" },
    jar,
  });
  expect(res.status).toBe(201);
  return ((await res.json()) as { insertedId: string }).insertedId;
}

beforeAll(async () => {
  app = await startTestApp({
    ADMIN_EMAIL: "owner@example.org",
    ADMIN_PASSWORD: "owner-pass-long-1",
    RATE_LIMIT_PUBLIC_FORMS: "1000",
  });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  customer = await signUp(app, EMAIL, { name: NAME });
  userId = (await app.services.accounts.userByEmail(EMAIL))!.id;
  const [pkg] = (await (await app.request("/api/pricings")).json()) as { _id: string }[];
  packageId = pkg!._id;

  // Paid by PayPal and delivered (a membership window); paid by hand then refunded; left unpaid.
  for (let i = 0; i < 3; i++) orderIds.push(await placeOrder(customer));
  const actor = await adminActor();
  await app.services.orders.pay(orderIds[0]!, PAYPAL_ACTOR, "TXN-ADA-0001");
  await app.services.orders.setOrderStatus(orderIds[0]!, { orderStatus: "Delivered" }, actor);
  await app.services.orders.setPaymentStatus(orderIds[1]!, { paymentStatus: "Paid" }, actor);
  await app.services.orders.setPaymentStatus(orderIds[1]!, { paymentStatus: "Refunded" }, actor);

  // What they sent through the public forms (the address in other letters: matched whatever the case).
  expect(
    (
      await app.request("/api/add-message", {
        method: "POST",
        json: {
          name: NAME,
          email: "Ada.Lovelace@Example.org",
          number: "+44 20 7946 0000",
          subject: "Kitchen",
          message: "Hello",
        },
      })
    ).status,
  ).toBe(201);
  expect((await app.request("/api/add-subscriber", { method: "POST", json: { subemail: EMAIL } })).status).toBe(202);
  // PayPal's notification of the payment, as the listener stores it (the payer's own name and address in it).
  await app.db.pool.query(
    `insert into payment_notices (provider, raw, headers, verdict, notice_type, order_id, outcome, reason) values ('paypal-ipn', $1, '{}', 'accepted', 'payment.completed', $2, 'applied', 'paid')`,
    [
      new URLSearchParams({
        txn_id: "TXN-ADA-0001",
        mc_gross: "99.00",
        mc_currency: "USD",
        payment_status: "Completed",
        first_name: "Ada",
        last_name: "Lovelace",
        payer_email: EMAIL,
        address_street: ADDRESS,
        custom: orderIds[0]!,
      }).toString(),
      orderIds[0],
    ],
  );
  // A failed sign-in (a counter keyed by the address), the staff's note on the customer record.
  expect((await attemptSignIn(app, EMAIL, "wrong-password-1")).res.status).toBe(401);
  await app.db.pool.query(`insert into customer_notes (user_id, note) values ($1, $2)`, [
    userId,
    `${NAME} prefers calls`,
  ]);
});
afterAll(() => app?.close());

describe("download my data", () => {
  it("holds the profile, the orders with their numbers, the membership window, newsletter, messages, consents, sessions", async () => {
    const data = await app.services.privacy.exportData(userId);
    expect(data.profile).toMatchObject({ name: NAME, email: EMAIL, staffRole: null });
    const { rows } = await app.db.pool.query(
      `select number, membership_starts, membership_valid from orders where user_id = $1 order by created_at, id`,
      [userId],
    );
    expect(data.orders.map((o) => o.number)).toEqual(rows.map((r) => r.number));
    expect(data.orders.map((o) => [o.paymentStatus, o.orderStatus])).toEqual([
      ["Paid", "Delivered"],
      ["Refunded", "Pending"],
      ["UnPaid", "Pending"],
    ]);
    expect(data.orders[0]).toMatchObject({ paypalTransactionId: "TXN-ADA-0001", name: NAME, address: ADDRESS });
    expect(data.orders[0]!.amount).toBeGreaterThan(0);
    // The window is the one the order commands stored (the same timeline function).
    expect(data.membershipWindows).toEqual([
      {
        orderNumber: rows[0].number,
        packageName: data.orders[0]!.packageName,
        starts: rows[0].membership_starts.toISOString(),
        ends: rows[0].membership_valid.toISOString(),
      },
    ]);
    expect(data.newsletter).toMatchObject([{ email: EMAIL, state: "pending" }]);
    expect(data.messages).toMatchObject([{ name: NAME, phone: "+44 20 7946 0000", subject: "Kitchen" }]);
    expect(data.consents.map((c) => c.document).sort()).toEqual(["privacy", "terms"]);
    expect(data.sessions.length).toBeGreaterThanOrEqual(1);
    // Nobody else's records: another customer's export has none of these.
    await signUp(app, "someone.else@example.org");
    const other = await app.services.privacy.exportData(
      (await app.services.accounts.userByEmail("someone.else@example.org"))!.id,
    );
    expect(JSON.stringify(other)).not.toContain(EMAIL);
    expect(other.orders).toEqual([]);
  });
});

describe("download my data, everything of a subject-access request (issue 33, item 11)", () => {
  it("holds the staff's private note, invoice numbers, how each order was paid, subscriptions and discount codes", async () => {
    const kj = await signUp(app, "katherine.johnson@example.org", { name: "Katherine Johnson" });
    const kjId = (await app.services.accounts.userByEmail("katherine.johnson@example.org"))!.id;
    const actor = await adminActor();
    const codeRes = await app.request("/api/discount-codes", {
      method: "POST",
      json: { code: "SPRING20", kind: "percent", value: 20 },
      jar: admin,
    });
    expect(codeRes.status, await codeRes.clone().text()).toBe(201);
    const placed = await app.request("/api/new-order", {
      method: "POST",
      json: {
        packageId,
        customerName: "Katherine Johnson",
        customerAddress: "1 Harbour St",
        customerCountry: "United Kingdom",
        discountCode: "spring20",
      },
      jar: kj,
    });
    expect(placed.status, await placed.clone().text()).toBe(201);
    const discounted = ((await placed.json()) as { insertedId: string }).insertedId;
    await app.services.customers.bankTransfer(
      kjId,
      { orderId: discounted, reference: "BACS 7781", activate: true },
      actor,
    );
    await app.services.customers.grant(kjId, { days: 14, reason: "Sorry for the outage" }, actor);
    await app.services.customers.setNote(kjId, { note: "Prefers mail to calls" }, actor);
    await app.db.pool.query(
      `insert into subscriptions (subscr_id, order_id, user_id, signed_up_at) values ('I-KJ0001', $1, $2, now())`,
      [discounted, kjId],
    );
    const data = await app.services.privacy.exportData(kjId);
    expect(data.staffNote).toMatchObject({ note: "Prefers mail to calls" });
    const [paid, gift] = data.orders;
    expect(paid).toMatchObject({
      paymentMethod: "Bank transfer",
      paymentReference: "BACS 7781",
      discountCode: "SPRING20",
    });
    expect(paid!.invoiceNumber).toMatch(/^INV-\d{4}-\d+$/);
    expect(paid!.discountAmount).toBeGreaterThan(0);
    expect(paid!.priceBefore).toBeGreaterThan(paid!.amount);
    expect(gift).toMatchObject({
      paymentMethod: "Gift",
      paymentReference: "Sorry for the outage",
      invoiceNumber: null,
    });
    expect(data.subscriptions).toMatchObject([{ reference: "I-KJ0001", status: "active", orderNumber: paid!.number }]);
    expect(data.discountCodes).toMatchObject([{ code: "SPRING20", orderNumber: paid!.number }]);
    // Ada's export has no note of Katherine's, and her own note.
    const ada = await app.services.privacy.exportData(userId);
    expect(ada.staffNote).toMatchObject({ note: `${NAME} prefers calls` });
    expect(ada.subscriptions).toEqual([]);
  });
});

describe("erasure from the back office (DELETE /api/customers/:id)", () => {
  it("refuses a staff member, an unknown id and anyone but staff whose role opens customers", async () => {
    const editor = await signUpStaff(app, app.db.pool, "editor@example.org", "Editor");
    const editorId = (await app.services.accounts.userByEmail("editor@example.org"))!.id;
    const staff = await app.request(`/api/customers/${editorId}`, { method: "DELETE", jar: admin });
    expect(staff.status).toBe(409);
    expect(((await staff.json()) as { error: string }).error).toBe(STAFF_NOT_ERASED);
    expect((await app.request(`/api/customers/nobody`, { method: "DELETE", jar: admin })).status).toBe(404);
    expect((await app.request(`/api/customers/${userId}`, { method: "DELETE", jar: editor })).status).toBe(403);
    expect((await app.request(`/api/customers/${userId}`, { method: "DELETE", jar: customer })).status).toBe(403);
    expect((await app.request(`/api/customers/${userId}`, { method: "DELETE" })).status).toBe(401);
    expect((await app.services.accounts.userByEmail(EMAIL))?.id).toBe(userId);
  });

  it("erases the person everywhere and keeps the orders for the accounts, anonymised", async () => {
    const before = await app.db.pool.query(
      `select id, number, package_price, payment_status, order_status, txn_id, paid_at, membership_starts, membership_valid
       from orders where user_id = $1 order by created_at, id`,
      [userId],
    );
    const mailsBefore = await app.db.pool.query(
      `select count(*)::int as n from pgboss.job where position($1 in lower(data::text)) > 0`,
      [EMAIL],
    );
    expect(mailsBefore.rows[0].n).toBeGreaterThan(0);

    const res = await app.request(`/api/customers/${userId}`, { method: "DELETE", jar: admin });
    expect(res.status).toBe(200);

    // Every text of every table, ours and the job queue's: no email, name or address left.
    expect(await tracesOf([EMAIL, NAME, ADDRESS, "Lovelace"])).toEqual([]);

    // They cannot sign in (an attempt counts against the address again, as for any address), their session is gone.
    expect((await attemptSignIn(app, EMAIL, CUSTOMER_PASSWORD)).res.status).toBe(401);
    expect((await app.request("/api/me", { jar: customer })).status).toBe(401);
    for (const table of ["session", "account", "consents", "two_factor", "customer_notes", "membership_reminders"]) {
      const { rows } = await app.db.pool.query(`select count(*)::int as n from ${table} where user_id = $1`, [userId]);
      expect(rows[0].n, table).toBe(0);
    }

    // The orders: same numbers, amounts, dates, statuses and PayPal id; nobody's name; the unpaid one cancelled.
    const after = await app.db.pool.query(
      `select id, number, package_price, payment_status, order_status, txn_id, paid_at, membership_starts, membership_valid,
         customer_name, customer_email, customer_address, customer_country
       from orders where user_id = $1 order by created_at, id`,
      [userId],
    );
    expect(after.rows.map((r) => r.number)).toEqual(before.rows.map((r) => r.number));
    expect(after.rows.map((r) => [r.payment_status, r.order_status])).toEqual([
      ["Paid", "Delivered"],
      ["Refunded", "Pending"],
      ["Cancelled", "Pending"],
    ]);
    for (const [i, r] of after.rows.entries()) {
      const was = before.rows[i]!;
      expect([r.package_price, r.txn_id, r.paid_at, r.membership_starts, r.membership_valid]).toEqual([
        was.package_price,
        was.txn_id,
        was.paid_at,
        was.membership_starts,
        was.membership_valid,
      ]);
      expect([r.customer_name, r.customer_email, r.customer_address, r.customer_country]).toEqual([
        ERASED_NAME,
        erasedEmail(userId),
        "",
        "United Kingdom",
      ]);
    }
    // PayPal's notification keeps the payment, not the payer.
    const { rows: events } = await app.db.pool.query(`select raw from payment_notices where order_id = $1`, [
      orderIds[0],
    ]);
    const ipn = new URLSearchParams(events[0].raw);
    expect([ipn.get("txn_id"), ipn.get("mc_gross"), ipn.get("payer_email"), ipn.get("first_name")]).toEqual([
      "TXN-ADA-0001",
      "99.00",
      null,
      null,
    ]);

    // The CSV export of the orders no longer has them, and still has the orders.
    const csv = (await buffer(csvStream(await app.services.exports.orders()))).toString("utf8");
    expect(csv).not.toContain(EMAIL);
    expect(csv).not.toContain("Lovelace");
    for (const r of after.rows) expect(csv).toContain(r.number);

    // The log: the erasure, by the admin, with nothing of the person; their own entries under the placeholder.
    const { rows: log } = await app.db.pool.query(
      `select actor_email, action, changes from activity_log where entity = 'customer' and record_id = $1`,
      [userId],
    );
    expect(log).toEqual([
      {
        actor_email: "owner@example.org",
        action: "delete",
        changes: {
          request: { before: "By mail, erased in the back office", after: null },
          ordersKept: { before: 3, after: null },
        },
      },
    ]);
    const { rows: placed } = await app.db.pool.query(
      `select distinct actor_email from activity_log where actor_id = $1`,
      [userId],
    );
    expect(placed).toEqual([{ actor_email: ERASED_NAME }]);

    // Nothing more is mailed to them: a later refund of their order queues no mail to the placeholder.
    await app.services.orders.setPaymentStatus(orderIds[0]!, { paymentStatus: "Refunded" }, await adminActor());
    const { rows: queued } = await app.db.pool.query(
      `select count(*)::int as n from pgboss.job where data->'mail'->>'to' like '%@erased.invalid'`,
    );
    expect(queued[0].n).toBe(0);

    // Twice is refused; the address may open a new account, which starts empty.
    const again = await app.request(`/api/customers/${userId}`, { method: "DELETE", jar: admin });
    expect(again.status).toBe(409);
    expect(((await again.json()) as { error: string }).error).toBe(ALREADY_ERASED);
    await signUp(app, EMAIL);
    const fresh = (await app.services.accounts.userByEmail(EMAIL))!;
    expect(fresh.id).not.toBe(userId);
    expect((await app.services.privacy.exportData(fresh.id)).orders).toEqual([]);
  });
});

describe("delete my account", () => {
  it("asks for the current password, then erases and signs out everywhere", async () => {
    const email = "grace.hopper@example.org";
    const jar = await signUp(app, email, { name: "Grace Hopper" });
    const id = (await app.services.accounts.userByEmail(email))!.id;
    await placeOrder(jar, "Grace Hopper");
    const refused = app.services.privacy.deleteOwnAccount({ id }, { password: "not-my-password" });
    await expect(refused).rejects.toMatchObject({
      status: 400,
      errors: [{ field: "password", message: DELETE_MESSAGES.passwordWrong }],
    });
    await expect(app.services.privacy.deleteOwnAccount({ id }, {})).rejects.toMatchObject({ status: 400 });
    expect((await app.request("/api/me", { jar })).status).toBe(200);

    await app.services.privacy.deleteOwnAccount({ id }, { password: CUSTOMER_PASSWORD });
    expect(await tracesOf([email, "Grace Hopper"])).toEqual([]);
    expect((await app.request("/api/me", { jar })).status).toBe(401);
    expect((await attemptSignIn(app, email, CUSTOMER_PASSWORD)).res.status).toBe(401);
    const { rows } = await app.db.pool.query(
      `select actor_email, changes from activity_log where entity = 'customer' and record_id = $1`,
      [id],
    );
    expect(rows).toEqual([
      {
        actor_email: ERASED_NAME,
        changes: { request: { before: "From their own account", after: null }, ordersKept: { before: 1, after: null } },
      },
    ]);
  });

  it("with two-factor sign-in on, also asks for a code: the app's current one, or a recovery code", async () => {
    const email = "two.steps@example.org";
    const jar = await signUp(app, email);
    const id = (await app.services.accounts.userByEmail(email))!.id;
    const headers = new Headers({ cookie: jar.header() });
    const { totpUri } = await app.services.twoFactor.startEnrolment(id, { password: CUSTOMER_PASSWORD }, headers);
    const { base32 } = await import("@better-auth/utils/base32");
    const otp = createOTP(base32.decode(new URL(totpUri).searchParams.get("secret")!));
    const { recoveryCodes } = await app.services.twoFactor.confirmEnrolment(id, { code: await otp.totp() }, headers);
    expect(await app.services.privacy.needsCode(id)).toBe(true);

    await expect(app.services.privacy.deleteOwnAccount({ id }, { password: CUSTOMER_PASSWORD })).rejects.toMatchObject({
      status: 400,
      errors: [{ field: "code", message: DELETE_MESSAGES.codeRequired }],
    });
    await expect(
      app.services.privacy.deleteOwnAccount({ id }, { password: CUSTOMER_PASSWORD, code: "000000" }),
    ).rejects.toMatchObject({ status: 400, errors: [{ field: "code", message: DELETE_MESSAGES.codeWrong }] });
    expect((await app.services.accounts.userByEmail(email))?.id).toBe(id);

    await app.services.privacy.deleteOwnAccount({ id }, { password: CUSTOMER_PASSWORD, code: recoveryCodes[0]! });
    expect(await tracesOf([email])).toEqual([]);
    const { rows } = await app.db.pool.query(`select count(*)::int as n from two_factor where user_id = $1`, [id]);
    expect(rows[0].n).toBe(0);
  });

  it("refuses the last Admin, who stays an Admin and signed in", async () => {
    const owner = await adminActor();
    await expect(
      app.services.privacy.deleteOwnAccount({ id: owner.id }, { password: "owner-pass-long-1" }),
    ).rejects.toMatchObject({ status: 409, message: LAST_ADMIN_DELETE });
    expect(await app.services.adminUsers.roleOf("owner@example.org")).toBe("Admin");
    expect((await app.request("/api/me", { jar: admin })).status).toBe(200);
  });

  it("lets a staff member who is not the last Admin go: off the staff and erased", async () => {
    const email = "second.admin@example.org";
    await signUpStaff(app, app.db.pool, email, "Admin", { password: "second-admin-pass-1" });
    const id = (await app.services.accounts.userByEmail(email))!.id;
    await app.services.privacy.deleteOwnAccount({ id }, { password: "second-admin-pass-1" });
    expect(await app.services.adminUsers.roleOf(email)).toBeNull();
    expect(await tracesOf([email])).toEqual([]);
  });
});

/**
 * Where any of `needles` still appears (case-insensitive): every text, varchar and JSON column of every table in the
 * app's schema and the job queue's, one query per column, as "table.column: n".
 */
async function tracesOf(needles: string[]): Promise<string[]> {
  const { rows: columns } = await app.db.pool.query(
    `select table_schema, table_name, column_name from information_schema.columns
     where table_schema in ('public', 'pgboss') and data_type in ('text', 'character varying', 'jsonb', 'json')
       and table_name in (select table_name from information_schema.tables
                          where table_schema in ('public', 'pgboss') and table_type = 'BASE TABLE')`,
  );
  const found: string[] = [];
  for (const c of columns) {
    const column = `"${c.table_schema}"."${c.table_name}"."${c.column_name}"`;
    const { rows } = await app.db.pool.query(
      `select count(*)::int as n from "${c.table_schema}"."${c.table_name}"
       where exists (select 1 from unnest($1::text[]) as needle where position(lower(needle) in lower("${c.column_name}"::text)) > 0)`,
      [needles],
    );
    if (rows[0].n) found.push(`${column}: ${rows[0].n}`);
  }
  expect(columns.length).toBeGreaterThan(50);
  return found;
}
