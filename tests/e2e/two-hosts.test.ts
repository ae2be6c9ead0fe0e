import { existsSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { signIn, signUp } from "../support/accounts";
import { createTestDatabase } from "../support/db";
import { outbox, type ReceivedMail } from "../support/mail";
import { databaseUrl, startBuiltServer, type RunningServer } from "../support/server";

/**
 * Issue 24, part 4: two hosts on one PostgreSQL and no AUTH_SECRET, as two machines behind a load balancer would run
 * (the built server, each with its own DATA_DIR and port; A with two worker processes). What one signs, the other
 * accepts: sessions, newsletter links; what one changes, the other shows.
 */
const ADMIN = { email: "hosts-admin@example.org", password: "hosts-admin-1" };
let database: Awaited<ReturnType<typeof createTestDatabase>>;
let a: RunningServer;
let b: RunningServer;

beforeAll(async () => {
  database = await createTestDatabase();
  const env = {
    DATABASE_URL: databaseUrl(inject("testDb").admin as never, database.name),
    // Set to nothing, so that no AUTH_SECRET of the environment running the tests applies.
    AUTH_SECRET: "",
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_PUBLIC_FORMS: "1000",
    DATABASE_POOL_SIZE: "4",
  };
  // A first (it makes the secret), then B: both start at once in production, which the integration test covers.
  a = await startBuiltServer({ ...env, WEB_CONCURRENCY: "2" });
  b = await startBuiltServer({ ...env, WEB_CONCURRENCY: "1" });
});
afterAll(async () => {
  await a?.stop();
  await b?.stop();
  await database?.drop();
});

const me = async (host: RunningServer, cookie: string) => {
  const res = await fetch(`${host.url}/api/me`, { headers: { cookie } });
  return { status: res.status, body: (await res.json()) as { email?: string } };
};

describe("two hosts on one database, without AUTH_SECRET", () => {
  it("share one generated secret, kept in the database and in neither DATA_DIR", async () => {
    const { rows } = await database.pool.query<{ name: string; length: number }>(
      "select name, length(value) as length from app_secrets",
    );
    expect(rows).toEqual([{ name: "auth", length: 43 }]);
    for (const host of [a, b]) expect(existsSync(path.join(host.dataDir, "secrets", "auth-secret"))).toBe(false);
    expect(a.output() + b.output()).not.toContain((await secret()).slice(0, 12));
  });

  it("a session made on one is valid on the other, both ways", async () => {
    const onA = await signUp(a, "roaming@example.org");
    expect(await me(b, onA.header())).toMatchObject({ status: 200, body: { email: "roaming@example.org" } });
    const onB = await signIn(b, "roaming@example.org", "quiet-harbour-71");
    expect(await me(a, onB.header())).toMatchObject({ status: 200, body: { email: "roaming@example.org" } });
    // A cookie signed with another secret is no session on either.
    const session = onA
      .header()
      .split("; ")
      .find((c) => c.includes("session_token="))!;
    const forged = session.replace(/\.[^.]*$/, ".AAAA");
    expect((await me(b, forged)).status).toBe(401);
  });

  it("a newsletter mail sent by one: its confirmation and unsubscribe links work on the other", async () => {
    const email = "hosts-reader@example.org";
    const res = await fetch(`${a.url}/api/add-subscriber`, {
      method: "POST",
      headers: { "content-type": "application/json", origin: a.url },
      body: JSON.stringify({ subemail: email }),
    });
    expect(res.status, await res.text()).toBe(202);
    // The job queue of either host may send it: each writes to its own DATA_DIR/outbox.
    const find = () =>
      [...outbox(a.dataDir), ...outbox(b.dataDir)].find((m) => m.to[0]!.includes(email)) as ReceivedMail | undefined;
    await expect.poll(() => find() !== undefined, { timeout: 20_000 }).toBe(true);
    const mail = find()!;
    const body = mail.raw
      .replace(/=\r?\n/g, "")
      .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
    expect(body).toContain(`${a.url}/newsletter/confirm/`); // composed on A, with A's address
    const confirm = /\/newsletter\/confirm\/[\w-]+/.exec(body)![0];
    const state = async () =>
      (await database.pool.query("select state from subscribers where subemail = $1", [email])).rows[0]?.state;

    const confirmed = await fetch(b.url + confirm, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded", origin: b.url },
      body: "intent=confirm",
    });
    expect(confirmed.status).toBeLessThan(400);
    expect(await state()).toBe("confirmed");

    // The unsubscribe link is signed with the auth secret (no row holds it): B must know A's secret to accept it.
    const head = mail.raw.split(/\r?\n\r?\n/)[0]!.replace(/\r?\n[ \t]+/g, " ");
    const unsubscribe = new URL(/^List-Unsubscribe: <([^>]+)>/m.exec(head)![1]!).pathname;
    expect((await fetch(b.url + unsubscribe)).status).toBe(200);
    const oneClick = await fetch(b.url + unsubscribe, {
      method: "POST",
      redirect: "manual",
      headers: { "content-type": "application/x-www-form-urlencoded" },
      body: "List-Unsubscribe=One-Click",
    });
    expect(oneClick.status).toBeLessThan(400);
    expect(await state()).toBe("unsubscribed");
  });

  it("a content change on one shows on the other", async () => {
    const admin = await signIn(a, ADMIN.email, ADMIN.password);
    await (await fetch(`${b.url}/`)).text(); // B has its copy of the page
    const [banner] = (await (await fetch(`${a.url}/api/banner`)).json()) as Record<string, unknown>[];
    const { _id, ...fields } = banner!;
    const heading = `Seen on both hosts ${Date.now()}`;
    const res = await fetch(`${a.url}/api/update-banner/${String(_id)}`, {
      method: "PUT",
      headers: { cookie: admin.header(), "content-type": "application/json", origin: a.url },
      body: JSON.stringify({ ...fields, bannerHeading: heading }),
    });
    expect(res.status, await res.text()).toBe(200);
    await expect.poll(async () => (await (await fetch(`${b.url}/`)).text()).includes(heading)).toBe(true);
  });
});

async function secret(): Promise<string> {
  const { rows } = await database.pool.query<{ value: string }>("select value from app_secrets where name = 'auth'");
  return rows[0]!.value;
}
