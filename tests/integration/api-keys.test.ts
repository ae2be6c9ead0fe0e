import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signInAsAdmin, signUp, signUpStaff } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Issue 37, part 1 (decision 077): API keys made, listed and revoked by an Admin, and `Authorization: Bearer` on the
 * REST calls: a revoked key refused at once, too few rights answered 403 naming the area, a read-only key refused a
 * write, never better-auth's calls nor a back-office page, and the key's own rate limit. (permission-matrix.test.ts
 * tries every call with a key of each area and access.)
 */
let app: TestApp;
const admin = new CookieJar();
let editor: CookieJar;
const LIMIT = 25;

beforeAll(async () => {
  app = await startTestApp(
    { ADMIN_EMAIL: "keys@example.org", ADMIN_PASSWORD: "keys-pass-long-1", RATE_LIMIT_API_KEYS: String(LIMIT) },
    { pages: true },
  );
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
  editor = await signUpStaff(app, app.db.pool, "ed-keys@example.org", "Editor");
}, 120_000);
afterAll(() => app?.close());

interface Made {
  insertedId: string;
  secret: string;
  key: { _id: string; name: string; label: string; areas: string[]; access: string; lastUsedAt: string | null };
}

async function makeKey(name: string, areas: string[], access: "read" | "write"): Promise<Made> {
  const res = await app.request("/api/api-keys", { method: "POST", json: { name, areas, access }, jar: admin });
  expect(res.status).toBe(201);
  return (await res.json()) as Made;
}

const withKey = (secret: string, init: RequestInit & { json?: unknown; jar?: CookieJar } = {}) => ({
  ...init,
  headers: { ...(init.headers as Record<string, string>), authorization: `Bearer ${secret}` },
});

describe("the key calls (Admin only)", () => {
  it("make a key whose secret is answered once, list it without it, and revoke it", async () => {
    const made = await makeKey("Bookkeeping", ["orders", "customers"], "read");
    expect(made.secret).toMatch(/^atl_[0-9a-f]{12}_[A-Za-z0-9_-]{43}$/);
    expect(made.key).toMatchObject({ name: "Bookkeeping", areas: ["orders", "customers"], access: "read" });
    expect(made.key.label).toBe(`${made.secret.slice(0, 16)}…`);
    // Stored hashed: the table holds the SHA-256, never the key.
    const { rows } = await app.db.pool.query("select * from api_keys where id = $1", [made.insertedId]);
    expect(JSON.stringify(rows)).not.toContain(made.secret.slice(17));
    expect(rows[0].secret_hash).toMatch(/^[0-9a-f]{64}$/);

    const list = await app.request("/api/api-keys", { jar: admin });
    expect(list.status).toBe(200);
    const text = await list.text();
    expect(text).not.toContain(made.secret);
    expect(text).not.toContain(rows[0].secret_hash);
    expect(JSON.parse(text)).toEqual(
      expect.arrayContaining([expect.objectContaining({ _id: made.insertedId, createdBy: "keys@example.org" })]),
    );

    const revoke = await app.request(`/api/api-keys/${made.insertedId}/revoke`, { method: "POST", jar: admin });
    expect(await revoke.json()).toMatchObject({ modifiedCount: 1 });
    const again = await app.request(`/api/api-keys/${made.insertedId}/revoke`, { method: "POST", jar: admin });
    expect(await again.json()).toMatchObject({ modifiedCount: 0 });
  });

  it("refuse a bad key form with a message per field", async () => {
    const res = await app.request("/api/api-keys", {
      method: "POST",
      json: { name: "", areas: ["orders", "kitchen"], access: "admin" },
      jar: admin,
    });
    expect(res.status).toBe(400);
    const body = (await res.json()) as { errors: { field: string; message: string }[] };
    expect(body.errors.map((e) => e.field).sort()).toEqual(["access", "areas.1", "name"]);
    const none = await app.request("/api/api-keys", {
      method: "POST",
      json: { name: "Nothing", areas: [], access: "read" },
      jar: admin,
    });
    expect(await none.json()).toMatchObject({ error: "Choose at least one area the key may use" });
  });

  it("are refused to an Editor, to a customer and to any key, even one of every area", async () => {
    expect((await app.request("/api/api-keys", { jar: editor })).status).toBe(403);
    const customer = await signUp(app, "keys-customer@example.org");
    expect((await app.request("/api/api-keys", { jar: customer })).status).toBe(403);
    const all = await makeKey("Everything", ["settings", "users", "orders"], "write");
    const res = await app.request(
      "/api/api-keys",
      withKey(all.secret, { method: "POST", json: { name: "Child", areas: ["orders"], access: "write" } }),
    );
    expect(res.status).toBe(403);
    expect(await app.db.pool.query("select 1 from api_keys where name = 'Child'")).toMatchObject({ rowCount: 0 });
  });
});

describe("a call made with a key", () => {
  it("is admitted by the key's areas: 403 naming the area it lacks, 401 for an unknown key", async () => {
    const { secret } = await makeKey("Orders reader", ["orders"], "read");
    const orders = await app.request("/api/orders", withKey(secret));
    expect(orders.status).toBe(200);
    expect(Array.isArray(await orders.json())).toBe(true);
    const customers = await app.request("/api/customers", withKey(secret));
    expect(customers.status).toBe(403);
    expect(await customers.json()).toMatchObject({ area: "customers", error: expect.stringContaining("customers") });
    const unknown = await app.request("/api/orders", withKey(`${secret.slice(0, -1)}A`));
    expect(unknown.status).toBe(401);
    expect(unknown.headers.get("www-authenticate")).toBe('Bearer realm="api"');
    expect((await app.request("/api/orders", withKey("not-a-key"))).status).toBe(401);
    expect((await app.request("/api/orders", { headers: { authorization: "Bearer" } })).status).toBe(401);
  });

  it("is refused at once once its key is revoked", async () => {
    const made = await makeKey("Short-lived", ["orders"], "read");
    expect((await app.request("/api/orders", withKey(made.secret))).status).toBe(200);
    await app.request(`/api/api-keys/${made.insertedId}/revoke`, { method: "POST", jar: admin });
    const after = await app.request("/api/orders", withKey(made.secret));
    expect(after.status).toBe(401);
    expect(await after.json()).toMatchObject({ error: expect.stringContaining("revoked") });
  });

  it("with a read-only key only reads; a read-write key writes, and the log names the key as who", async () => {
    const reader = await makeKey("Reader", ["content"], "read");
    const write = { method: "POST", json: { copyrightText: "© Keys" } };
    const refused = await app.request("/api/add-footer-copyright", withKey(reader.secret, write));
    expect(refused.status).toBe(403);
    expect(await refused.json()).toMatchObject({ error: expect.stringContaining("read-only") });
    expect((await app.request("/api/articles", withKey(reader.secret, { method: "HEAD" }))).status).toBe(200);

    const writer = await makeKey("Site sync", ["content"], "write");
    const added = await app.request("/api/add-footer-copyright", withKey(writer.secret, write));
    expect(added.status).toBe(201);
    const { insertedId } = (await added.json()) as { insertedId: string };
    const { rows } = await app.db.pool.query("select actor_id, actor_email from activity_log where record_id = $1", [
      insertedId,
    ]);
    expect(rows).toEqual([
      { actor_id: `api-key:${writer.insertedId}`, actor_email: `API key “Site sync” (${writer.key.label})` },
    ]);
    // The log's screen shows that actor as who.
    const log = await app.request("/activity", { jar: admin });
    expect(await log.text()).toContain("API key “Site sync”");
  });

  it("needs a person for the calls that answer for one, and a cookie sent with it changes nothing", async () => {
    const { secret } = await makeKey("Orders", ["orders"], "write");
    // /api/me and a new order are a signed-in person's; the Admin's cookie sent beside the key is not used.
    for (const [path, init] of [
      ["/api/me", {}],
      ["/api/new-order", { method: "POST", json: {} }],
    ] as const) {
      const res = await app.request(path, withKey(secret, { ...init, jar: admin }));
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({ error: expect.stringContaining("person") });
    }
    // A key lacking the area with an Admin's cookie: still the key's refusal.
    expect((await app.request("/api/users", withKey(secret, { jar: admin }))).status).toBe(403);
  });

  it("never reaches better-auth's calls nor a back-office page, even beside an Admin's cookie", async () => {
    const { secret } = await makeKey("All areas", ["orders", "settings", "users", "customers"], "write");
    for (const path of ["/api/auth/get-session", "/api/auth/sign-out", "/api/auth/list-sessions"]) {
      const res = await app.request(path, withKey(secret, { jar: admin }));
      expect(res.status, path).toBe(403);
      expect(await res.json()).toMatchObject({ error: expect.stringContaining("sign-in") });
    }
    const signIn = await app.request(
      "/api/auth/sign-in/email",
      withKey(secret, { method: "POST", json: { email: "keys@example.org", password: "keys-pass-long-1" } }),
    );
    expect(signIn.status).toBe(403);
    expect(signIn.headers.get("set-cookie")).toBeNull();
    // The page and its loader's data: sent to sign in (a key is nobody to the pages), the cookie beside it ignored.
    // (The loader's data answers its redirect in its body, React Router's single fetch.)
    for (const path of ["/total-orders", "/total-orders.data", "/api-keys"]) {
      const res = await app.request(path, withKey(secret, { jar: admin }));
      const body = await res.text();
      expect(res.status === 302 || (path.endsWith(".data") && res.status === 202), `${path}: ${res.status}`).toBe(true);
      expect(res.headers.get("location") ?? body, path).toContain("/login");
      expect(body).not.toContain("Orders");
    }
    // Without the key, the same cookie opens the page.
    expect((await app.request("/total-orders", { jar: admin })).status).toBe(200);
  }, 60_000);

  it("counts against the key's own rate limit: 429 with Retry-After, other keys unaffected", async () => {
    const busy = await makeKey("Busy", ["orders"], "read");
    const calm = await makeKey("Calm", ["orders"], "read");
    for (let i = 0; i < LIMIT; i++) expect((await app.request("/api/orders", withKey(busy.secret))).status).toBe(200);
    const over = await app.request("/api/orders", withKey(busy.secret));
    expect(over.status).toBe(429);
    expect(Number(over.headers.get("retry-after"))).toBeGreaterThan(0);
    expect(await over.json()).toMatchObject({ error: expect.stringContaining("requests in a minute") });
    expect((await app.request("/api/orders", withKey(calm.secret))).status).toBe(200);
  });

  it("moves the key's last use on at most once a minute", async () => {
    const made = await makeKey("Counted", ["orders"], "read");
    const lastUsed = async () =>
      (await app.db.pool.query("select last_used_at from api_keys where id = $1", [made.insertedId])).rows[0]
        .last_used_at as Date | null;
    expect(await lastUsed()).toBeNull();
    await app.request("/api/orders", withKey(made.secret));
    const first = await lastUsed();
    expect(first).toBeInstanceOf(Date);
    await app.request("/api/orders", withKey(made.secret));
    expect(await lastUsed()).toEqual(first);
    // A minute later (the stored time moved back), the next call moves it on.
    await app.db.pool.query("update api_keys set last_used_at = now() - interval '61 seconds' where id = $1", [
      made.insertedId,
    ]);
    const movedBack = (await lastUsed())!;
    await app.request("/api/orders", withKey(made.secret));
    expect((await lastUsed())!.getTime()).toBeGreaterThan(movedBack.getTime() + 60_000);
    const list = (await (await app.request("/api/api-keys", { jar: admin })).json()) as Made["key"][];
    expect(list.find((k) => k._id === made.insertedId)?.lastUsedAt).not.toBeNull();
  });
});
