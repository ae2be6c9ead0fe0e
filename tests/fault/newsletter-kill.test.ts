import { chmodSync, mkdtempSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres, type EmbeddedServer } from "#server/db/embedded.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { withClient } from "../support/global-db";
import { startSmtpServer, type ReceivedMail } from "../support/mail";
import { databaseUrl, startBuiltServer, type RunningServer } from "../support/server";
import { atRandomMoment, untilTimed as until } from "../support/wait";
import { LONG, signIn } from "./support";

/**
 * Issue 36, part 4: the app killed (kill -9) in the middle of a newsletter's send and started again on the same
 * DATA_DIR: every recipient gets their mail, one Message-ID each, counted at the SMTP listener by recipient. The mails
 * in flight at the kill (rows `sending`, at most 8) are settled by the host's note of what SMTP accepted; only one
 * whose acceptance the app never read can arrive twice, as the same message (docs/operations/mail.md, Newsletters).
 */
const RECIPIENTS = LONG ? 20_000 : Number(process.env.NL_KILL_RECIPIENTS ?? 1_000);
const ADMIN = { email: "nl-kill-admin@example.org", password: "nl-kill-admin-pass-1" };
const dir = mkdtempSync(path.join(tmpdir(), "atelier-newsletter-kill-"));
chmodSync(dir, 0o755);
let db: EmbeddedServer;
let url: string;
let smtp: Awaited<ReturnType<typeof startSmtpServer>>;
const running: RunningServer[] = [];

beforeAll(async () => {
  db = await startEmbeddedPostgres(dir, silentLogger);
  await withClient(db.connection, (c) => c.query("create database atelier"));
  url = databaseUrl(db.connection, "atelier");
  smtp = await startSmtpServer();
});
afterAll(async () => {
  for (const server of running) await server.stop("SIGKILL").catch(() => {});
  await smtp?.close();
  await db?.stop();
  rmSync(dir, { recursive: true, force: true });
});

const start = async () => {
  const server = await startBuiltServer(
    {
      DATABASE_URL: url,
      ADMIN_EMAIL: ADMIN.email,
      ADMIN_PASSWORD: ADMIN.password,
      AUTH_SECRET: "newsletter-kill-secret-".padEnd(40, "x"),
      SMTP_URL: smtp.url,
      SEED_DEMO_CONTENT: "false",
      NEWSLETTER_RATE_PER_MINUTE: "60000",
      JOB_POLL_SECONDS: "1",
    },
    // The same DATA_DIR after the restart: the same host, whose note of what SMTP accepted survives a kill -9.
    { dataDir: path.join(dir, "app") },
  );
  running.push(server);
  return server;
};

async function query<T>(text: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({ connectionString: url });
  await client.connect();
  try {
    return (await client.query(text, params)).rows as T[];
  } finally {
    await client.end();
  }
}

const SUBJECT = "Kill test letter";
const ours = () => smtp.received.filter((m) => m.subject === SUBJECT);
const messageId = (m: ReceivedMail) => /^Message-ID:\s*(<[^>]+>)/im.exec(m.raw.replace(/\r?\n(?=[ \t])/g, ""))?.[1];

describe("kill -9 in the middle of a newsletter's send", () => {
  it("after the restart every recipient has exactly one mail (one Message-ID each)", async () => {
    let app = await start();
    await query(
      `insert into subscribers (subemail, state, confirmed_at)
       select 'reader' || g || '@example.org', 'confirmed', now() from generate_series(1, $1) g`,
      [RECIPIENTS],
    );
    const cookie = await signIn(app.url, ADMIN.email, ADMIN.password);
    const call = (p: string, body: unknown) =>
      fetch(`${app.url}/api${p}`, {
        method: "POST",
        headers: { cookie, "content-type": "application/json" },
        body: JSON.stringify(body),
      });
    const created = await call("/newsletters", { subject: SUBJECT, bodyText: "Hello.", audience: ["subscribers"] });
    expect(created.status).toBe(201);
    const { insertedId: id } = (await created.json()) as { insertedId: string };
    const send = await call(`/newsletters/${id}/send`, {});
    expect(send.status, await send.clone().text()).toBe(202);
    expect(((await send.json()) as { recipients: number }).recipients).toBe(RECIPIENTS);

    await until("a third of the mails sent", () => ours().length >= RECIPIENTS / 3, 120_000).catch(async (e) => {
      console.info(ours().length, smtp.received.length, app.output().slice(-3000));
      console.info(await query(`select status, count(*) from newsletter_recipients group by 1`));
      console.info(await query(`select name, state, output from pgboss.job order by created_on desc limit 5`));
      throw e;
    });
    // At a moment of no particular mail (the count above is seen just after a group was accepted).
    await atRandomMoment(700);
    await app.stop("SIGKILL");
    const atKill = ours().length;
    const inFlight = await query<{ n: number }>(
      `select count(*)::int as n from newsletter_recipients where newsletter_id = $1 and status = 'sending'`,
      [id],
    );
    app = await start();
    const ms = await until(
      "the newsletter sent after the restart",
      async () =>
        (await query<{ state: string }>(`select state from newsletters where id = $1`, [id]))[0]?.state === "sent",
      180_000,
    );
    // Its send's jobs all ended: nothing is left that could hand SMTP another copy.
    await until(
      "the send's jobs ended",
      async () =>
        (
          await query<{ n: number }>(
            `select count(*)::int as n from pgboss.job where name = 'newsletter-send' and state < 'completed'`,
          )
        )[0]!.n === 0,
      30_000,
    );
    const mails = ours();
    const byRecipient = new Map<string, Set<string>>();
    let copies = 0;
    for (const m of mails) {
      for (const to of m.to) {
        const ids = byRecipient.get(to) ?? new Set<string>();
        ids.add(messageId(m) ?? "none");
        byRecipient.set(to, ids);
        copies++;
      }
    }
    const resent = copies - byRecipient.size;
    console.info(
      `newsletter kill -9: ${atKill} of ${RECIPIENTS} sent before the kill, ${inFlight[0]?.n ?? 0} in flight; ` +
        `finished ${ms} ms after the restart; ${copies} mails, ${byRecipient.size} recipients, ${resent} resent`,
    );
    expect(byRecipient.size).toBe(RECIPIENTS);
    for (let i = 1; i <= RECIPIENTS; i++) expect(byRecipient.get(`reader${i}@example.org`)?.size).toBe(1);
    // One Message-ID each. A copy more only for a mail in flight at the kill whose acceptance SMTP sent but the app
    // never read (it died in between): it goes again with its same Message-ID. Those whose answer the app read are
    // settled by its note and not sent again.
    expect(resent).toBeLessThanOrEqual(inFlight[0]?.n ?? 0);
    const counts = await query<{ status: string; n: number }>(
      `select status, count(*)::int as n from newsletter_recipients where newsletter_id = $1 group by status`,
      [id],
    );
    expect(counts).toEqual([{ status: "sent", n: RECIPIENTS }]);
    await app.stop();
  }, 300_000);
});
