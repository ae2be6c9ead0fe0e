import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { DAY_MS, membershipOf, membershipTimeline } from "#domain/membership.ts";
import { AppError } from "#server/lib/errors.ts";
import type { Viewer } from "#server/services/accounts.ts";
import { PAYPAL_ACTOR } from "#server/services/orders/index.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { startTestApp, type TestApp } from "../support/app";
import { signInAsAdmin } from "../support/accounts";
import { CookieJar } from "../support/session";

/**
 * The order commands against the real database, with the services' clock ours (`clock`): random histories through the
 * real commands store exactly the timeline the pure function gives, and every reader (the REST answers, the dashboard's
 * membership, the desk's list, the mails) reads the same figures; one order per one-time key under real concurrency;
 * gap-free numbers; the desk's search by number, id, name and email; the one-off recompute a migration queues.
 */
let app: TestApp;
let clock = Date.UTC(2026, 10, 25, 9);
let admin: CookieJar;
let adminViewer: Viewer;
let packages: { _id: string; packageName: string; packagePrice: number; packageValidity: number }[];
const form = { customerName: "Rae Refund", customerAddress: "2 Dock Road, Hull", customerCountry: "United Kingdom" };

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "boss@example.org", ADMIN_PASSWORD: "boss-pass-12", PAYPAL_RECEIVER_EMAIL: "shop@example.org" },
    { now: () => new Date(clock) },
  );
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  packages = (await (await app.request("/api/pricings")).json()) as typeof packages;
  admin = await signInAsAdmin(app);
  adminViewer = (await app.services.accounts.viewer(new Headers({ cookie: admin.header() })))!;
});
afterAll(() => app?.close());

let customers = 0;
/** A customer who signs in (a session for the REST calls): a few per file, sign-ups are rate-limited per address. */
async function newCustomer(): Promise<{ jar: CookieJar; viewer: Viewer }> {
  const jar = new CookieJar();
  const email = `c${++customers}-${Math.random().toString(36).slice(2, 8)}@example.org`;
  const res = await app.request("/api/auth/sign-up/email", {
    method: "POST",
    json: { email, password: "quiet-harbour-71", name: "", acceptTerms: true },
    jar,
  });
  expect(res.status).toBe(200);
  return { jar, viewer: (await app.services.accounts.viewer(new Headers({ cookie: jar.header() })))! };
}
/** A customer the services act for (no session): an account row, as many as a property run needs. */
async function customerRow(): Promise<Viewer> {
  const id = crypto.randomUUID();
  const email = `p${++customers}-${id.slice(0, 8)}@example.org`;
  await app.db.pool.query(`insert into "user" (id, name, email) values ($1, '', $2)`, [id, email]);
  return {
    id,
    email,
    name: "",
    displayName: email,
    emailVerified: true,
    staffRole: null,
    isAdmin: false,
    twoFactorEnabled: false,
    twoFactorDue: false,
  };
}

const rowsOf = async (userId: string) =>
  (
    await app.db.pool.query(
      `select id, number, payment_status, order_status, package_name, package_validity, paid_at, delivered_at,
              created_at, membership_starts, membership_valid
       from orders where user_id = $1 order by created_at, id`,
      [userId],
    )
  ).rows as {
    id: string;
    number: string;
    payment_status: "UnPaid" | "Paid" | "Cancelled" | "Refunded";
    order_status: "Pending" | "Delivered";
    package_name: string;
    package_validity: number;
    paid_at: Date | null;
    delivered_at: Date | null;
    created_at: Date;
    membership_starts: Date | null;
    membership_valid: Date | null;
  }[];

/** The mails queued to `to` (pg-boss's job table), oldest first: subject and plain text. */
const mailsTo = async (to: string) =>
  (
    await app.db.pool.query(
      `select data->'mail'->>'subject' as subject, data->'mail'->>'text' as text from pgboss.job
       where name = 'send-mail' and data->'mail'->>'to' = $1 order by created_on`,
      [to],
    )
  ).rows as { subject: string; text: string }[];

/** A date as the mails write it, in the site's time zone. */
const day = (d: Date | number) =>
  new Intl.DateTimeFormat("en-US", {
    month: "short",
    day: "numeric",
    year: "numeric",
    timeZone: app.config.timeZone,
  }).format(new Date(d));

type Op = "pay" | "payPayPal" | "deliver" | "undeliver" | "cancel" | "refund" | "reverse" | "unpay";

describe("random histories through the real commands", () => {
  it("store the pure timeline, and every reader reads the same figures", async () => {
    const step = fc.oneof(
      fc.record({
        kind: fc.constant("place" as const),
        pkg: fc.nat(),
        after: fc.integer({ min: 0, max: 20 * DAY_MS }),
      }),
      fc.record({
        kind: fc.constant("op" as const),
        op: fc.constantFrom<Op>("pay", "payPayPal", "deliver", "undeliver", "cancel", "refund", "reverse", "unpay"),
        order: fc.nat(),
        after: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 20 * DAY_MS })),
        twice: fc.boolean(),
      }),
    );
    let runs = 0;
    await fc.assert(
      fc.asyncProperty(fc.array(step, { minLength: 2, maxLength: 12 }), async (steps) => {
        runs++;
        const viewer = await customerRow();
        const ids: string[] = [];
        for (const s of steps) {
          clock += s.after;
          if (s.kind === "place") {
            const pkg = packages[s.pkg % packages.length]!;
            ids.push((await app.services.orders.place(viewer, pkg._id, form)).order._id);
            continue;
          }
          if (!ids.length) continue;
          const id = ids[s.order % ids.length]!;
          const run = async () => {
            const o = app.services.orders;
            switch (s.op) {
              case "pay":
                return o.setPaymentStatus(id, { paymentStatus: "Paid" }, adminViewer);
              case "payPayPal":
                return o.pay(id, PAYPAL_ACTOR, `T-${id}-${clock}`);
              case "deliver":
                return o.setOrderStatus(id, { orderStatus: "Delivered" }, adminViewer);
              case "undeliver":
                return o.setOrderStatus(id, { orderStatus: "Pending" }, adminViewer);
              case "cancel":
                return o.cancel(viewer, id);
              case "refund":
                return o.setPaymentStatus(id, { paymentStatus: "Refunded" }, adminViewer);
              case "reverse":
                return o.refund(id, PAYPAL_ACTOR, "reverse");
              case "unpay":
                return o.setPaymentStatus(id, { paymentStatus: "UnPaid" }, adminViewer);
            }
          };
          for (let k = 0; k < (s.twice ? 2 : 1); k++) {
            const mailsBefore = (await mailsTo(viewer.email)).length;
            try {
              await run();
            } catch (error) {
              // A refusal (cancelling a paid order) changes nothing; anything else is a failure.
              if (!(error instanceof AppError) || error.status !== 409) throw error;
            }
            // A mail this change sent names the figures the timeline has right after it.
            const now = await rowsOf(viewer.id);
            const order = now.find((r) => r.id === id)!;
            const end = Math.max(0, ...now.map((r) => r.membership_valid?.getTime() ?? 0));
            for (const m of (await mailsTo(viewer.email)).slice(mailsBefore)) {
              expect(m.text).toContain(order.number);
              if (/was refunded/.test(m.subject))
                expect(m.text).toContain(end > clock ? `Valid until ${day(end)}` : "No active membership");
              if (/membership is active/.test(m.subject)) expect(m.text).toContain(day(order.membership_valid!));
            }
          }
        }
        const rows = await rowsOf(viewer.id);
        const windows = new Map(
          membershipTimeline(
            rows.map((r) => ({
              id: r.id,
              paymentStatus: r.payment_status,
              orderStatus: r.order_status,
              packageValidity: r.package_validity,
              paidAt: r.paid_at,
              deliveredAt: r.delivered_at,
              createdAt: r.created_at,
            })),
          ).map((w) => [w.orderId, w]),
        );
        // Stored = the pure timeline of the stored orders; days granted = the validities of the orders that count.
        for (const r of rows) {
          expect(r.membership_starts?.getTime() ?? null, r.number).toBe(windows.get(r.id)?.starts.getTime() ?? null);
          expect(r.membership_valid?.getTime() ?? null, r.number).toBe(windows.get(r.id)?.ends.getTime() ?? null);
        }
        const granted = rows.reduce(
          (sum, r) => sum + (r.membership_valid ? r.membership_valid.getTime() - r.membership_starts!.getTime() : 0),
          0,
        );
        const paidFor = rows
          .filter((r) => r.payment_status === "Paid" && r.order_status === "Delivered")
          .reduce((sum, r) => sum + r.package_validity * DAY_MS, 0);
        expect(granted).toBe(paidFor);

        // The REST answers (the customer's own list) and the desk's list read the same windows.
        const mine = await app.services.orders.list(viewer, { perPage: 50, mine: true });
        const desk = await app.services.orders.list(adminViewer, { perPage: 50, filters: { q: viewer.email } });
        for (const list of [mine.orders, desk.orders])
          for (const o of list) expect(o.membershipValid).toBe(windows.get(o._id)?.ends.toISOString() ?? null);
        // The dashboard's membership is the pure one of the same orders.
        const expected = membershipOf(
          rows.map((r) => ({
            packageName: r.package_name,
            paymentStatus: r.payment_status,
            orderStatus: r.order_status,
            membershipStarts: windows.get(r.id)?.starts ?? null,
            membershipValid: windows.get(r.id)?.ends ?? null,
          })),
          new Date(clock),
        );
        expect((await app.services.orders.summary(viewer)).membership).toEqual(expected);
      }),
      { numRuns: Number(process.env.FC_DB_RUNS ?? 25) },
    );
    expect(runs).toBeGreaterThanOrEqual(25);
  }, 240_000);
});

describe("the reported refund", () => {
  it("Premium paid, Standard paid and delivered, Premium refunded: 30 days everywhere, in the REST answers and the mails", async () => {
    const { jar, viewer } = await newCustomer();
    const premium = packages.find((p) => p.packageName === "Premium")!;
    const standard = packages.find((p) => p.packageName === "Standard")!;
    const p = (await app.services.orders.place(viewer, premium._id, form)).order;
    clock += 60_000;
    const s = (await app.services.orders.place(viewer, standard._id, form)).order;
    clock += 60_000;
    await app.services.orders.setPaymentStatus(p._id, { paymentStatus: "Paid" }, adminViewer);
    clock += 60_000;
    await app.services.orders.setPaymentStatus(s._id, { paymentStatus: "Paid" }, adminViewer);
    clock += 60_000;
    const deliveredAt = clock;
    await app.services.orders.setOrderStatus(s._id, { orderStatus: "Delivered" }, adminViewer);
    const end = new Date(deliveredAt + standard.packageValidity * DAY_MS).toISOString();
    const read = async () => ({
      rest: ((await (await app.request(`/api/order/${s._id}`, { jar })).json()) as { membershipValid: string })
        .membershipValid,
      dashboard: (await app.services.orders.summary(viewer)).membership,
    });
    expect(await read()).toEqual({
      rest: end,
      dashboard: { state: "active", packageName: "Standard", expiresAt: new Date(end), daysLeft: 30 },
    });
    clock += 60_000;
    await app.services.orders.setPaymentStatus(p._id, { paymentStatus: "Refunded" }, adminViewer);
    expect((await read()).rest).toBe(end);
    expect((await read()).dashboard).toMatchObject({ state: "active", daysLeft: 30 });
    const mails = await mailsTo(viewer.email);
    const active = mails.find((m) => /membership is active/.test(m.subject))!;
    const refunded = mails.find((m) => /was refunded/.test(m.subject))!;
    const date = new Intl.DateTimeFormat("en-US", {
      month: "short",
      day: "numeric",
      year: "numeric",
      timeZone: app.config.timeZone,
    }).format(new Date(end));
    expect(active.text).toContain(date);
    expect(refunded.text).toContain(`Valid until ${date}`);
    expect(refunded.text).toContain(p.orderNumber);
  });
});

describe("placing an order", () => {
  it("two simultaneous posts with one Idempotency-Key make one order and get the same answer", async () => {
    const { jar, viewer } = await newCustomer();
    const key = crypto.randomUUID();
    const post = () =>
      app.request("/api/new-order", {
        method: "POST",
        json: { packageId: packages[0]!._id, ...form },
        headers: { "idempotency-key": key },
        jar,
      });
    const answers = await Promise.all([post(), post(), post(), post()]);
    const bodies = await Promise.all(answers.map((r) => r.json()));
    expect(answers.map((r) => r.status)).toEqual([201, 201, 201, 201]);
    expect(new Set(bodies.map((b) => b.insertedId)).size).toBe(1);
    expect(await rowsOf(viewer.id)).toHaveLength(1);
    // Later, the same key again: the same order. Another key: another order. The key for another package: 409.
    expect((await (await post()).json()).insertedId).toBe(bodies[0].insertedId);
    const other = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: packages[0]!._id, ...form },
      headers: { "idempotency-key": crypto.randomUUID() },
      jar,
    });
    expect(other.status).toBe(201);
    const clash = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: packages[1]!._id, ...form },
      headers: { "idempotency-key": key },
      jar,
    });
    expect(clash.status).toBe(409);
    const bad = await app.request("/api/new-order", {
      method: "POST",
      json: { packageId: packages[0]!._id, ...form },
      headers: { "idempotency-key": "x".repeat(201) },
      jar,
    });
    expect(bad.status).toBe(400);
    expect(await rowsOf(viewer.id)).toHaveLength(2);
  });

  it("numbers orders placed at once without a gap or a repeat, per year of the site's time zone", async () => {
    const year = new Date(clock).getUTCFullYear();
    const before = (await app.db.pool.query(`select last from number_sequences where scope = $1`, [`order:${year}`]))
      .rows[0]?.last as number;
    const people = await Promise.all(Array.from({ length: 6 }, () => customerRow()));
    const placed = await Promise.all(
      people.flatMap((c) => [0, 1, 2].map(() => app.services.orders.place(c, packages[0]!._id, form))),
    );
    const numbers = placed.map((p) => p.order.orderNumber).sort();
    const expected = Array.from({ length: 18 }, (_, i) => `AN-${year}-${String(before + 1 + i).padStart(5, "0")}`);
    expect(numbers).toEqual(expected);
    // A refused placement (an unknown package) takes no number.
    await expect(app.services.orders.place(people[0]!, crypto.randomUUID(), form)).rejects.toThrow();
    const next = await app.services.orders.place(people[0]!, packages[0]!._id, form);
    expect(next.order.orderNumber).toBe(`AN-${year}-${String(before + 19).padStart(5, "0")}`);
  });
});

describe("days given", () => {
  it("copy every customer field of the latest order, at the account's email (decision 085)", async () => {
    const c = await customerRow();
    await app.services.orders.place(c, packages[0]!._id, form);
    const { order } = await app.services.orders.grant(c.id, { days: 5, reason: "A fix" }, adminViewer);
    const fields = {
      customerEmail: order.customerEmail,
      customerName: order.customerName,
      customerAddress: order.customerAddress,
      customerCountry: order.customerCountry,
      customerCountryCode: order.customerCountryCode,
      customerVatNumber: order.customerVatNumber,
    };
    expect(fields).toEqual({
      customerEmail: c.email,
      customerName: form.customerName,
      customerAddress: form.customerAddress,
      customerCountry: "United Kingdom",
      customerCountryCode: "GB",
      customerVatNumber: null,
    });
    // A customer with no order yet: their account's name and email, nothing else known.
    const first = await customerRow();
    const given = await app.services.orders.grant(first.id, { days: 5, reason: "A welcome" }, adminViewer);
    expect([given.order.customerEmail, given.order.customerAddress, given.order.customerCountryCode]).toEqual([
      first.email,
      "",
      null,
    ]);
  });
});

describe("the desk's search", () => {
  it("finds an order by its number (any case), its id, the customer's name and email; the number shows everywhere", async () => {
    const { jar, viewer } = await newCustomer();
    const order = (
      await app.services.orders.place(viewer, packages[0]!._id, { ...form, customerName: "Ottilie Quist" })
    ).order;
    const found = async (q: string) =>
      (
        (await (await app.request(`/api/orders?q=${encodeURIComponent(q)}`, { jar: admin })).json()) as {
          _id: string;
        }[]
      )
        .map((o) => o._id)
        .includes(order._id);
    for (const q of [order.orderNumber, order.orderNumber.toLowerCase(), ` ${order.orderNumber} `, order._id])
      expect(await found(q), q).toBe(true);
    for (const q of ["ottilie", "Quist", viewer.email, viewer.email.toUpperCase()])
      expect(await found(q), q).toBe(true);
    expect(await found("AN-1999-00001")).toBe(false);
    // The customer's REST answer and the pay page's checkout carry the same number.
    const mine = (await (await app.request(`/api/order/${order._id}`, { jar })).json()) as { orderNumber: string };
    expect(mine.orderNumber).toBe(order.orderNumber);
    const checkout = await app.services.paypal.checkout(order);
    expect(checkout.fields.item_name).toContain(order.orderNumber);
  });
});

describe("the recompute a migration queues", () => {
  it("rewrites the windows written by the old rule once, and says how many orders moved", async () => {
    const viewer = await customerRow();
    const premium = packages.find((p) => p.packageName === "Premium")!;
    const standard = packages.find((p) => p.packageName === "Standard")!;
    const p = (await app.services.orders.place(viewer, premium._id, form)).order;
    const s = (await app.services.orders.place(viewer, standard._id, form)).order;
    // What the old rule left: an undelivered, refunded Premium that had pushed Standard's window out to 60 days.
    const t = new Date(clock);
    await app.db.pool.query(
      `update orders set payment_status = 'Refunded', paid_at = $2, membership_valid = $2 where id = $1`,
      [p._id, t],
    );
    await app.db.pool.query(
      `update orders set payment_status = 'Paid', order_status = 'Delivered', paid_at = $2, delivered_at = $2,
         membership_valid = $3 where id = $1`,
      [s._id, t, new Date(t.getTime() + 60 * DAY_MS)],
    );
    await app.db.pool.query(`insert into membership_recompute (user_id) values ($1)`, [viewer.id]);
    expect(await app.services.orders.recomputeQueued()).toEqual({ customers: 1, moved: 2 });
    const rows = await rowsOf(viewer.id);
    expect(rows.find((r) => r.id === p._id)!.membership_valid).toBeNull();
    expect(rows.find((r) => r.id === s._id)!.membership_valid!.getTime()).toBe(t.getTime() + 30 * DAY_MS);
    // Once: the queue is empty.
    expect(await app.services.orders.recomputeQueued()).toEqual({ customers: 0, moved: 0 });
  });
});
