import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { isSectionType, sections, type SectionType } from "#domain/registry.ts";
import type { TrashKind } from "#domain/trash.ts";
import { apiRoutes } from "#server/http/routes/index.ts";
import type { SampleRecord } from "#server/http/routes/route.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin, signUp } from "../support/accounts";
import { noticesSettled, payWithCheckout } from "../support/paypal";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";
import { rmSync, writeFileSync } from "node:fs";
import path from "node:path";

/**
 * The permission matrix, generated from the route table (server/http/routes/): every admin call answers 401 to a
 * visitor, 403 to a customer and 2xx to an admin; a route added to the table is tested without anyone remembering to.
 */
let app: TestApp;
const customer = new CookieJar();
const admin = new CookieJar();
const ids: Record<string, string> = {};

beforeAll(async () => {
  // No mail retries: a mail that cannot be written fails at once (the Retry call needs a failed job).
  // Webhook endpoints on this machine (WEBHOOKS_ALLOW_PRIVATE): nothing listens there, their deliveries just fail.
  app = await startTestApp({
    ADMIN_EMAIL: "chief@example.org",
    ADMIN_PASSWORD: "chief-pass-1",
    JOB_RETRY_LIMIT: "0",
    WEBHOOKS_ALLOW_PRIVATE: "1",
  });
  await app.services.accounts.ensureFirstAdmin();
  await signUp(app, "cust@example.org", { jar: customer });
  await signInAsAdmin(app, { jar: admin });
  // One record of each kind for the calls that need an id.
  await app.request("/api/add-message", {
    method: "POST",
    json: { name: "A", email: "a@example.org", subject: "S", message: "M" },
  });
  ids.message = (await app.db.pool.query("select id from messages limit 1")).rows[0].id;
  ids.user = (await app.db.pool.query("select id from admin_users limit 1")).rows[0].id;
});
afterAll(() => app?.close());

const routes = () => apiRoutes(app.services);

/** A mail job that really failed: a file stands where the outbox folder goes, so writing the mail throws. */
async function failedJob(): Promise<string> {
  const outboxDir = path.join(app.config.dataDir, "outbox");
  rmSync(outboxDir, { recursive: true, force: true });
  writeFileSync(outboxDir, "");
  try {
    const mail = { to: "nobody@example.org", subject: "Undeliverable", text: "t", html: "<p>h</p>" };
    await app.services.jobs.queueMail(app.db.db, mail, "admin-api:undeliverable");
    const failed = async () =>
      (await app.services.jobs.list()).failed.find((j) => j.summary.startsWith("Undeliverable"))?.id;
    await expect.poll(failed, { timeout: 10_000 }).toBeTruthy();
    return (await failed())!;
  } finally {
    rmSync(outboxDir, { force: true });
  }
}
const demoRecord = (type: string) => demoContent.find((r) => r.type === type)!.data;
const getSection = (type: string) => sections.find((s) => s.type === type)!;

type Route = ReturnType<typeof routes>[number];
type NamedKind = Exclude<SampleRecord, SectionType | `trashed ${TrashKind}`>;
/** One call's records: those its sample named so far (a customer's order follows them), and what runs after it. */
interface Call {
  route: Route;
  made: Map<SampleRecord, string>;
  after: (() => Promise<void>)[];
}

/**
 * A real request for a route, from the sample it declares (server/http/routes/route.ts): its path with the records
 * its ids name (made or found by the fixture of their kind), and its body with the ids it holds.
 */
async function requestFor(route: Route): Promise<{ path: string; body?: unknown; after: Call["after"] }> {
  const name = `${route.method.toUpperCase()} ${route.path}`;
  const params = [...route.path.matchAll(/:(\w+)/g)].map((m) => m[1]!);
  expect(route.method === "get" || route.sample !== undefined, `${name} declares a sample`).toBe(true);
  const call: Call = { route, made: new Map(), after: [] };
  const values: Record<string, string | string[]> = {};
  for (const [field, kind] of Object.entries(route.sample?.ids ?? {})) {
    if (Array.isArray(kind)) values[field] = await everyRecord(kind[0]);
    else call.made.set(kind, (values[field] = await recordOf(kind, call)));
  }
  let path = route.path;
  for (const param of params) {
    const value = values[param];
    expect(typeof value, `${name}: its sample names the record :${param} names`).toBe("string");
    path = path.replace(`:${param}`, encodeURIComponent(value as string));
  }
  const inBody = Object.entries(values).filter(([field]) => !params.includes(field));
  const body =
    route.sample?.body || inBody.length ? { ...route.sample?.body, ...Object.fromEntries(inBody) } : undefined;
  return { path, body, after: call.after };
}

/** A record of a kind for a call: a content section's, one in the trash, or one of the fixtures'. */
function recordOf(kind: SampleRecord, call: Call): Promise<string> {
  if (isSectionType(kind)) return contentRecord(kind, call);
  if (kind.startsWith("trashed ")) return trashedRecord(kind.slice("trashed ".length) as TrashKind, call);
  return fixtures[kind as NamedKind](call);
}

/** Every record of a content list, in a new order (a reorder's body). */
async function everyRecord(kind: SampleRecord): Promise<string[]> {
  const records = await app.services.content.list(kind as never);
  return records.map((r) => r._id).reverse();
}

/** Adds a content record as the admin: its id, or undefined when the section is full (a singleton's second). */
async function addContent(type: string): Promise<string | undefined> {
  const res = await app.request(`/api${getSection(type).api.add}`, {
    method: "POST",
    json: demoRecord(type),
    jar: admin,
  });
  return res.status === 201 ? ((await res.json()) as { insertedId: string }).insertedId : undefined;
}

/**
 * The record of a section the calls share (made, or found when the section is full: a singleton's add call made it).
 * A DELETE gets one of its own in a list (in a capped list that is full, one other than the shared one); in a
 * singleton, its one record, added again afterwards for the other tests.
 */
async function contentRecord(type: SectionType, { route, after }: Call): Promise<string> {
  const records = async () => await app.services.content.list(type as never);
  if (route.method === "delete" && getSection(type).cardinality === "list")
    return (await addContent(type)) ?? (await records()).find((r) => r._id !== ids[type])!._id;
  const record = (ids[type] ??= (await addContent(type)) ?? (await records())[0]!._id);
  if (route.method === "delete") after.push(async () => void (ids[type] = (await addContent(type))!));
  return record;
}

/** The trash (decision 039): each call meets a record of its kind deleted a moment before. */
async function trashedRecord(kind: TrashKind, { route }: Call): Promise<string> {
  if (kind === "content") {
    const deleted = (await addContent("testimonial"))!;
    await app.request(`/api${getSection("testimonial").api.one.replace(":id", deleted)}`, {
      method: "DELETE",
      jar: admin,
    });
    return deleted;
  }
  if (kind === "items") {
    // One item per category: the restored one keeps its own, the one deleted for good another.
    const category = route.method === "post" ? "graphic-design" : "facebook-marketing";
    const deleted = await addItem({ itemName: "Trash leads", itemsDescription: "Gone", itemDatabaseUrl: category });
    await app.request(`/api/database/${deleted}`, { method: "DELETE", jar: admin });
    return deleted;
  }
  const deleted = await image(`trash ${route.method}`);
  await app.request(`/api/media/${deleted}`, { method: "DELETE", jar: admin });
  return deleted;
}

/** A catalogue item added as the admin. */
async function addItem(fields: { itemName: string; itemsDescription: string; itemDatabaseUrl: string }) {
  const res = await app.request("/api/add-database", {
    method: "POST",
    json: { itemsGuideline: "Be kind", ...fields },
    jar: admin,
  });
  return ((await res.json()) as { data: { _id: string } }).data._id;
}

/** A fresh image in the media library. */
async function image(note: string): Promise<string> {
  const svg = `<svg xmlns="http://www.w3.org/2000/svg" width="8" height="8"><!-- ${note} --></svg>`;
  return (await app.services.media.importTrusted({ bytes: Buffer.from(svg), fileName: "x.svg", alt: "" }))._id;
}

/** An unpaid order placed by a customer (the shared one unless another is given). */
async function unpaidOrder(jar = customer, customerName = "C"): Promise<string> {
  const res = await app.request("/api/new-order", {
    method: "POST",
    json: {
      packageId: (ids.pricing ??= (await addContent("pricing"))!),
      customerName,
      customerAddress: "A",
      customerCountry: "UK",
    },
    jar,
  });
  return ((await res.json()) as { insertedId: string }).insertedId;
}

/** A fresh Editor in the admin list, for the staff calls (decision 036). */
async function editorRecord(): Promise<string> {
  const { rows } = await app.db.pool.query(
    `insert into admin_users (user_email, user_role) values ('ed-' || gen_random_uuid() || '@example.org', 'Editor') returning id`,
  );
  return String(rows[0].id);
}

/** The customers the fixtures signed up, by id, with their sessions. */
const customerJars = new Map<string, CookieJar>();
/** Each webhook endpoint's test delivery. */
const testDeliveries = new Map<string, string>();

/** One fixture per kind of record a sample names: it makes one for the call, or finds the one the calls share. */
const fixtures: Record<NamedKind, (call: Call) => Promise<string>> = {
  "admin user": async () => ids.user!,
  // A fresh Editor: the admin is the last Admin, whom nobody may remove.
  "staff member": () => editorRecord(),
  // An Editor whose two-factor sign-in is on (decision 040): the reset turns it off.
  "staff member with two-factor": async () => {
    const staffId = await editorRecord();
    await app.db.pool.query(
      `with u as (insert into "user" (id, name, email, email_verified, two_factor_enabled)
         select gen_random_uuid()::text, '', user_email, true, true from admin_users where id = $1 returning id)
       insert into two_factor (id, secret, backup_codes, user_id) select gen_random_uuid()::text, 'x', 'x', id from u`,
      [staffId],
    );
    return staffId;
  },
  message: async () => ids.message!,
  order: () => unpaidOrder(),
  // An order paid on PayPal Checkout (the simulator), to refund in part (decision 067).
  "paid order": async () => {
    const paid = await unpaidOrder();
    await payWithCheckout(app, paid);
    await noticesSettled(app);
    return paid;
  },
  // The customer record's calls (issue 26): a customer of their own.
  customer: async () => {
    const email = `record-${crypto.randomUUID()}@example.org`;
    const jar = await signUp(app, email);
    const { rows } = await app.db.pool.query(`select id from "user" where email = $1`, [email]);
    customerJars.set(String(rows[0].id), jar);
    return String(rows[0].id);
  },
  "customer's unpaid order": ({ made }) => unpaidOrder(customerJars.get(made.get("customer")!)!, "R"),
  // The item the calls share; the DELETE deletes it.
  item: async ({ route }) => {
    const item = (ids.item ??= await addItem({
      itemName: "SEO leads",
      itemsDescription: "Shops",
      itemDatabaseUrl: "seo-service",
    }));
    if (route.method === "delete") delete ids.item;
    return item;
  },
  "payment account": async () => {
    if (!ids.paypal) {
      const res = await app.request("/api/add-email", {
        method: "POST",
        json: { paypalEmail: "till@example.org" },
        jar: admin,
      });
      ids.paypal = ((await res.json()) as { insertedId: string }).insertedId;
    }
    return ids.paypal;
  },
  "discount code": async () => {
    if (!ids.discount) {
      const res = await app.request("/api/discount-codes", {
        method: "POST",
        json: { code: "ADMINAPI2", kind: "amount", value: 5 },
        jar: admin,
      });
      ids.discount = ((await res.json()) as { insertedId: string }).insertedId;
    }
    return ids.discount;
  },
  // A fresh image per call: the DELETE call removes its own.
  image: ({ route }) => image(route.method),
  "failed job": () => failedJob(),
  // Member imports (issue 37 part 3): an import of its own, uploaded as a small JSON file.
  import: async () => {
    const csv = "email,name\nimported@example.org,Imported\n";
    const res = await app.request("/api/customers/imports", { method: "POST", json: { csv }, jar: admin });
    return ((await res.json()) as { id: string }).id;
  },
  // The last change of a content record: its earlier values are written back.
  "content change": async () => {
    const { rows } = await app.db.pool.query(
      "select id from activity_log where action = 'update' and entity like 'content:%' order by created_at desc limit 1",
    );
    return String(rows[0].id);
  },
  // The articles (issue 36): an article of its own, changed once (its first version to restore).
  article: async () => {
    const title = `Article ${crypto.randomUUID().slice(0, 8)}`;
    const res = await app.request("/api/articles", { method: "POST", json: { title }, jar: admin });
    const article = ((await res.json()) as { insertedId: string }).insertedId;
    await app.request(`/api/articles/${article}`, { method: "PUT", json: { title: `${title}, again` }, jar: admin });
    return article;
  },
  "article version": async () => "1",
  // Newsletters (issue 36): a draft of its own, to one confirmed subscriber.
  newsletter: () => newsletterDraft(),
  "scheduled newsletter": async () => {
    const letter = await newsletterDraft();
    const at = new Date(Date.now() + 86_400_000).toISOString();
    await app.request(`/api/newsletters/${letter}/send`, { method: "POST", json: { at }, jar: admin });
    return letter;
  },
  "suppressed address": async () => {
    const address = `gone-${crypto.randomUUID().slice(0, 8)}@example.org`;
    await app.request("/api/suppressions", { method: "POST", json: { address }, jar: admin });
    return address;
  },
  // API keys (issue 37, decision 077): a key of its own to revoke.
  "API key": async () => {
    const key = { name: `Integration ${crypto.randomUUID().slice(0, 8)}`, areas: ["orders"], access: "read" };
    return (await app.services.apiKeys.create(key, { id: "admin-api", email: "chief@example.org" })).key._id;
  },
  // Webhooks (issue 37 part 2): an endpoint of its own, with one delivery (its test event).
  "webhook endpoint": async () => {
    const { rows } = await app.db.pool.query(`select id, email from "user" where email = 'chief@example.org'`);
    const chief = rows[0] as { id: string; email: string };
    const endpoint = { url: "http://127.0.0.1:9/hook", description: "Matrix", events: ["order.paid"] };
    const { id, secret } = await app.services.webhooks.add(endpoint, chief);
    expect(secret).toMatch(/^whsec_/);
    testDeliveries.set(id, (await app.services.webhooks.sendTest(id, chief)).deliveryId);
    return id;
  },
  "webhook delivery": async ({ made }) => testDeliveries.get(made.get("webhook endpoint")!)!,
};

/** A newsletter draft of its own, to one confirmed subscriber. */
async function newsletterDraft(): Promise<string> {
  await app.db.pool.query(
    "insert into subscribers (subemail, state, confirmed_at) values ('letters@example.org', 'confirmed', now()) on conflict do nothing",
  );
  const draft = { subject: `Letter ${crypto.randomUUID().slice(0, 8)}`, bodyText: "Hello.", audience: ["subscribers"] };
  const res = await app.request("/api/newsletters", { method: "POST", json: draft, jar: admin });
  return ((await res.json()) as { insertedId: string }).insertedId;
}

describe("the permission matrix", () => {
  it("declares every admin write of spec 2 section 7", () => {
    const paths = routes().map((r) => `${r.method.toUpperCase()} ${r.path}`);
    for (const expected of [
      "POST /add-banner",
      "PUT /update-banner/:id",
      "PUT /upadete-users/:id",
      "POST /add-feature-Item",
      "POST /add-Service",
      "PUT /message/:id",
      "PUT /order-status/:id",
      "POST /add-email",
      "PUT /paypal-email/:id",
    ]) {
      expect(paths).toContain(expected);
    }
    expect(routes().filter((r) => r.access === "staff").length).toBeGreaterThan(60);
  });

  // About 200 calls, three requests each (the search listings added 28): more than the default 20 s on a loaded machine.
  it("every admin call: 401 signed out, 403 for a customer, 2xx for an admin", { timeout: 90_000 }, async () => {
    const adminRoutes = routes().filter((r) => r.access === "staff");
    for (const route of adminRoutes) {
      const { path, body, after } = await requestFor(route);
      const init = { method: route.method.toUpperCase(), json: body };
      const name = `${route.method.toUpperCase()} ${route.path}`;
      expect((await app.request(`/api${path}`, init)).status, `${name} signed out`).toBe(401);
      expect((await app.request(`/api${path}`, { ...init, jar: customer })).status, `${name} as a customer`).toBe(403);
      const res = await app.request(`/api${path}`, { ...init, jar: admin });
      // A singleton added twice is a conflict by design; everything else succeeds.
      expect(
        [200, 201, 202].includes(res.status) || (res.status === 409 && route.method === "post"),
        `${name} as an admin: ${res.status} ${await res.clone().text()}`,
      ).toBe(true);
      for (const then of after) await then();
    }
  });

  it("every customer call: 401 signed out", async () => {
    for (const route of routes().filter((r) => r.access === "user")) {
      const path = route.path.replace(":id", "00000000-0000-4000-8000-000000000000");
      expect(
        (
          await app.request(`/api${path}`, {
            method: route.method.toUpperCase(),
            json: route.method === "get" ? undefined : {},
          })
        ).status,
        route.path,
      ).toBe(401);
    }
  });
});

describe("admin writes", () => {
  it("answer the spec's shapes, 400 naming the field, 404 for an unknown id (never an upsert)", async () => {
    const add = await app.request("/api/add-footer-copyright", {
      method: "POST",
      json: { copyrightText: "© 2026 Test" },
      jar: admin,
    });
    const copy = ids.copyright ?? ((await add.json()) as { insertedId: string }).insertedId;
    const bad = await app.request(`/api/copyrights/${copy}`, {
      method: "PUT",
      json: { copyrightText: "  " },
      jar: admin,
    });
    expect(bad.status).toBe(400);
    expect(await bad.json()).toMatchObject({ field: "copyrightText", error: "Copyright Text is required" });
    const ok = await app.request(`/api/copyrights/${copy}`, {
      method: "PUT",
      json: { copyrightText: "© 2026 Changed" },
      jar: admin,
    });
    expect(await ok.json()).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 1 });
    const same = await app.request(`/api/copyrights/${copy}`, {
      method: "PUT",
      json: { copyrightText: "© 2026 Changed" },
      jar: admin,
    });
    expect(await same.json()).toEqual({ acknowledged: true, matchedCount: 1, modifiedCount: 0 });
    const unknown = await app.request("/api/copyrights/00000000-0000-4000-8000-000000000000", {
      method: "PUT",
      json: { copyrightText: "x" },
      jar: admin,
    });
    expect(unknown.status).toBe(404);
    expect(
      (await app.db.pool.query("select count(*)::int as n from content_entries where type = 'copyright'")).rows[0].n,
    ).toBe(1);
  });

  it("about sections stop at two; a singleton at one", async () => {
    const about = demoRecord("about");
    const counts: number[] = [];
    for (let i = 0; i < 3; i++)
      counts.push((await app.request("/api/add-about", { method: "POST", json: about, jar: admin })).status);
    const n = (await app.db.pool.query("select count(*)::int as n from content_entries where type = 'about'")).rows[0]
      .n;
    expect(n).toBe(2);
    const last = await app.request("/api/add-about", { method: "POST", json: about, jar: admin });
    expect(last.status).toBe(409);
    expect(await last.json()).toEqual({ error: "You have reached the maximum of 2 About sections." });
  });

  it("the admin user cannot be moved to an address without a confirmed account", async () => {
    const res = await app.request(`/api/upadete-users/${ids.user}`, {
      method: "PUT",
      json: { userEmail: "nobody@example.org", userRole: "Admin" },
      jar: admin,
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: "userEmail" });
    expect((await app.request("/api/users", { jar: admin })).status).toBe(200);
  });

  it("every change is in the activity log with who, what and the fields before and after", async () => {
    const { rows } = await app.db.pool.query(
      "select actor_email, action, entity, record_id, changes from activity_log where entity = 'content:copyright' order by created_at",
    );
    expect(rows.length).toBeGreaterThanOrEqual(2);
    const update = rows.find((r) => r.action === "update" && r.changes.copyrightText?.after === "© 2026 Changed");
    expect(update).toMatchObject({ actor_email: "chief@example.org", entity: "content:copyright" });
    expect(update.changes.copyrightText.before).toBeTruthy();
    const markRead = await app.db.pool.query("select changes from activity_log where entity = 'message'");
    expect(markRead.rows[0].changes).toEqual({ messageStatus: { before: "UnRead", after: "Read" } });
    const order = await app.db.pool.query(
      "select changes from activity_log where entity = 'order' and action = 'update' and changes ? 'paymentStatus' limit 1",
    );
    expect(order.rows[0].changes.paymentStatus).toEqual({ before: "UnPaid", after: "Paid" });
  });
});
