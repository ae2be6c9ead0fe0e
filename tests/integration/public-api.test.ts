import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sections } from "#domain/registry.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { startTestApp, type TestApp } from "../support/app";
import { version } from "../../package.json";
import { sourceCommit } from "#scripts/version.mjs";

let app: TestApp;

beforeAll(async () => {
  app = await startTestApp({ RATE_LIMIT_PUBLIC_FORMS: "3" });
  await app.services.content.insertMany(demoContent);
});
afterAll(() => app?.close());

const validMessage = {
  name: "Maya Lindqvist",
  email: "maya@example.org",
  number: "+46 70 123 45 67",
  subject: "Living room refresh",
  message: "We would like a quote for a small living room.",
  messageStatus: "Read", // not the visitor's to choose
};

describe("public content lists", () => {
  it.each(sections.map((s) => [s.api.list, s.type] as const))("GET /api%s answers its records", async (path, type) => {
    const res = await app.request(`/api${path}`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toMatch(/application\/json/);
    const body = (await res.json()) as Record<string, unknown>[];
    expect(Array.isArray(body)).toBe(true);
    const expected = demoContent.filter((r) => r.type === type);
    expect(body).toHaveLength(expected.length);
    for (const [i, record] of body.entries()) {
      expect(record._id).toMatch(/^[0-9a-f-]{36}$/);
      expect(record).toMatchObject(expected[i]!.data);
    }
  });

  it("the spec's public paths all exist", async () => {
    const paths = [
      "/logo",
      "/banner",
      "/service-items",
      "/service",
      "/about",
      "/actions",
      "/testimonialtext",
      "/testimonials",
      "/pricings",
      "/footer-address",
      "/footer-social",
      "/copyrights",
      "/counters",
    ];
    for (const p of paths) expect((await app.request(`/api${p}`)).status, p).toBe(200);
  });

  it("GET /api/pricing/:id answers one package, 404 for an unknown or malformed id", async () => {
    const list = (await (await app.request("/api/pricings")).json()) as { _id: string; packageName: string }[];
    const premium = list.find((p) => p.packageName === "Premium")!;
    const one = await app.request(`/api/pricing/${premium._id}`);
    expect(one.status).toBe(200);
    expect(await one.json()).toMatchObject({ _id: premium._id, packageName: "Premium" });
    expect((await app.request("/api/pricing/00000000-0000-4000-8000-000000000000")).status).toBe(404);
    expect((await app.request("/api/pricing/not-an-id")).status).toBe(404);
  });

  it("a record of one section is not served under another section's path", async () => {
    const [banner] = (await (await app.request("/api/banner")).json()) as { _id: string }[];
    expect((await app.request(`/api/pricing/${banner!._id}`)).status).toBe(404);
  });

  it("/api/users is not public; unknown API paths are a JSON 404", async () => {
    expect((await app.request("/api/users")).status).toBe(401);
    const unknown = await app.request("/api/no-such-call");
    expect(unknown.status).toBe(404);
    expect(await unknown.json()).toEqual({ error: "No such API call." });
  });
});

describe("POST /api/add-message", () => {
  it("stores the message as UnRead, whatever status was sent", async () => {
    const res = await app.request("/api/add-message", {
      method: "POST",
      json: validMessage,
      headers: { "x-forwarded-for": "1" },
    });
    expect(res.status).toBe(201);
    const body = (await res.json()) as { acknowledged: boolean; insertedId: string };
    expect(body.acknowledged).toBe(true);
    const { rows } = await app.db.pool.query("select * from messages where id = $1", [body.insertedId]);
    expect(rows[0]).toMatchObject({ name: "Maya Lindqvist", email: "maya@example.org", message_status: "UnRead" });
  });

  it("answers 400 naming the field on bad input", async () => {
    const res = await app.request("/api/add-message", {
      method: "POST",
      json: { ...validMessage, email: "not-an-email" },
    });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: "email", error: "Please enter a valid email address" });
    const missing = await app.request("/api/add-message", { method: "POST", json: { email: "a@b.co" } });
    expect(missing.status).toBe(400);
    expect(await missing.json()).toMatchObject({ field: "name", error: "Full name is required" });
  });

  it("answers 400 on malformed JSON, 415 on a non-JSON body, 413 on an oversized one", async () => {
    const malformed = await app.request("/api/add-message", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: "{ not json",
    });
    expect(malformed.status).toBe(400);
    expect(await malformed.json()).toEqual({ error: "The request body is not valid JSON." });

    const form = await app.request("/api/add-message", { method: "POST", body: new URLSearchParams({ name: "x" }) });
    expect(form.status).toBe(415);

    const big = await app.request("/api/add-message", {
      method: "POST",
      json: { ...validMessage, message: "x".repeat(100_000) },
    });
    expect(big.status).toBe(413);
    expect(await big.json()).toEqual({ error: "The request body is too large: the limit is 64 KB." });
  });

  it("a filled honeypot is answered with success and stores nothing", async () => {
    const before = await app.db.pool.query("select count(*)::int as n from messages");
    const res = await app.request("/api/add-message", {
      method: "POST",
      json: { ...validMessage, website: "http://spam" },
    });
    expect(res.status).toBe(201);
    const after = await app.db.pool.query("select count(*)::int as n from messages");
    expect(after.rows[0].n).toBe(before.rows[0].n);
  });
});

describe("POST /api/add-subscriber", () => {
  it("stores an address once, pending; a repeat answers exactly the same without a duplicate", async () => {
    const first = await app.request("/api/add-subscriber", { method: "POST", json: { subemail: "news@example.org" } });
    expect(first.status).toBe(202);
    expect(await first.json()).toEqual({ acknowledged: true, insertedId: null });
    const again = await app.request("/api/add-subscriber", { method: "POST", json: { subemail: "NEWS@example.org " } });
    expect(again.status).toBe(202);
    expect(await again.json()).toEqual({ acknowledged: true, insertedId: null });
    const { rows } = await app.db.pool.query(
      "select state from subscribers where lower(subemail) = 'news@example.org'",
    );
    expect(rows).toEqual([{ state: "pending" }]);
  });

  it("answers 400 naming the field on a bad address", async () => {
    const res = await app.request("/api/add-subscriber", { method: "POST", json: { subemail: "nope" } });
    expect(res.status).toBe(400);
    expect(await res.json()).toMatchObject({ field: "subemail" });
  });
});

describe("rate limits", () => {
  it("answers 429 after the per-IP limit", async () => {
    // The limit is 3 per ten minutes in this app; earlier tests in this file used part of it for the same IP.
    const statuses: number[] = [];
    for (let i = 0; i < 5; i++) {
      const res = await app.request("/api/add-subscriber", {
        method: "POST",
        json: { subemail: `rl${i}@example.org` },
      });
      statuses.push(res.status);
    }
    expect(statuses).toContain(429);
    const limited = await app.request("/api/add-subscriber", {
      method: "POST",
      json: { subemail: "late@example.org" },
    });
    expect(limited.status).toBe(429);
    expect(limited.headers.get("retry-after")).toBeTruthy();
    expect(((await limited.json()) as { error: string }).error).toMatch(/too many times/);
  });
});

describe("health", () => {
  it("GET /healthz answers ok with the version and commit that answer", async () => {
    const res = await app.request("/healthz");
    expect(res.status).toBe(200);
    expect(res.headers.get("cache-control")).toBe("no-store");
    // The sources run here: package.json's version and git's HEAD (a build names the commit it was built from).
    const commit = sourceCommit();
    expect(commit).toMatch(/^[0-9a-f]{40}$/);
    expect(await res.json()).toEqual({ status: "ok", version, commit });
  });
});
