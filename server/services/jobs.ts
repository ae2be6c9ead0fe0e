import { sql } from "drizzle-orm";
import type pg from "pg";
import { PgBoss, fromDrizzle, type Job } from "pg-boss";
import type { Db } from "../db/client";
import { jobKeys } from "../db/schema";
import { notFound } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { Mail, Mailer } from "./mailer";
import { jobStatusOf, type JobStatus } from "../../domain/vocabulary";

/** A drizzle transaction, as `db.transaction(async (tx) => …)` hands it out. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** pg-boss's schema, beside the app's tables in the same database. */
export const JOBS_SCHEMA = "pgboss";
/** The queue every mail goes through. */
export const MAIL_QUEUE = "send-mail";

export interface JobsOptions {
  /** Retries after the first attempt, before the job is failed for good. */
  retryLimit: number;
  /** The first retry's delay; each further one doubles it (with jitter), up to an hour. */
  retryDelaySeconds: number;
  /** How often an idle worker looks for work. */
  pollSeconds: number;
  /** false: this instance only queues jobs; others run them (and the recurring tasks). */
  work: boolean;
}

/**
 * A job key: a kind, then the parts that make it unique (`order-paid:<order id>`), each a run of letters, digits and
 * `._@+-`. Keys are stored forever, so they stay short and hold no secret (hash a token first).
 */
const KEY = /^[a-z][a-z0-9-]{0,39}(:[A-Za-z0-9._@+-]{1,120}){0,4}$/;

export function isJobKey(key: string): boolean {
  return KEY.test(key);
}

/** The key of a job from its kind and parts, checked (a bad key is a programming error, thrown at once). */
export function jobKey(kind: string, ...parts: (string | number)[]): string {
  const key = [kind, ...parts.map(String)].join(":");
  if (!isJobKey(key)) throw new Error(`Not a valid job key: ${JSON.stringify(key)}`);
  return key;
}

/** pg-boss's queue names: letters, digits, `-`, `_`, `.` and `/`. */
const NAME = /^[a-z][a-z0-9-]{0,49}$/;

interface MailJob {
  key: string;
  mail: Mail;
}

/** One row of the admin's jobs screen. */
export interface JobRow {
  id: string;
  queue: string;
  status: JobStatus;
  /** What it does, in words: a mail's subject and recipient, or the recurring task's name. */
  summary: string;
  /** Attempts made so far (the first one included) and the most it gets. */
  attempts: number;
  maxAttempts: number;
  /** Why the last attempt failed (a failed job's reason), if it did. */
  error: string | null;
  createdAt: Date;
  /** When it runs next (pending) or last ran (failed). */
  at: Date;
}

export const JOBS_PAGE = 100;

/**
 * The durable job queue (docs/decisions/022): pg-boss on the app's PostgreSQL. A mail is queued in the caller's
 * transaction and sent by a worker with retries and exponential backoff; recurring tasks run once per cron tick
 * across every instance. Workers start with the app (start()) and stop with it (close()).
 */
export function createJobsService(deps: {
  db: Db;
  pool: pg.Pool;
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
  options: JobsOptions;
}) {
  const { db, mailer, logger, now, options } = deps;
  const recurring = new Map<string, { cron: string; handler: () => Promise<void> }>();
  let boss: PgBoss | undefined;
  let started: Promise<void> | undefined;

  const retry = {
    retryLimit: options.retryLimit,
    retryDelay: options.retryDelaySeconds,
    retryBackoff: true,
    retryDelayMax: 3600,
  };

  function running(): PgBoss {
    if (!boss) throw new Error("The job queue is not started (services.start()).");
    return boss;
  }

  async function startRecurring(b: PgBoss, name: string, cron: string, handler: () => Promise<void>) {
    // A missed tick is not worth a retry: the next one comes. A failure stays visible as failed.
    await b.createQueue(name, { retryLimit: 0, expireInSeconds: 15 * 60 });
    await b.schedule(name, cron, null, { tz: "UTC" });
    await b.work(name, { pollingIntervalSeconds: options.pollSeconds }, async () => {
      await handler();
    });
  }

  async function queueIn(tx: Tx, mail: Mail, key: string): Promise<boolean> {
    if (!isJobKey(key)) throw new Error(`Not a valid job key: ${JSON.stringify(key)}`);
    const inserted = await tx
      .insert(jobKeys)
      .values({ key, queue: MAIL_QUEUE, queuedAt: now() })
      .onConflictDoNothing()
      .returning({ key: jobKeys.key });
    if (!inserted.length) return false;
    const data: MailJob = { key, mail };
    await running().send(MAIL_QUEUE, data, { ...retry, db: fromDrizzle(tx, sql) });
    return true;
  }

  return {
    /**
     * Queues an already-composed mail inside the caller's transaction: it is sent only if that transaction commits,
     * and then survives any crash. false (and nothing queued) when `key` was queued before: each key is sent at most
     * once, ever. Without a transaction (better-auth's callbacks), pass the db: the key and the job commit together.
     */
    async queueMail(tx: Tx | Db, mail: Mail, key: string): Promise<boolean> {
      if ("rollback" in tx) return queueIn(tx, mail, key);
      return tx.transaction((inner) => queueIn(inner, mail, key));
    },

    /**
     * A recurring task: `handler` runs once per `cron` tick (UTC, five fields) across all instances. Call before
     * start(); a later call starts it at once.
     */
    every(name: string, cron: string, handler: () => Promise<void>): void {
      if (!NAME.test(name) || name === MAIL_QUEUE) throw new Error(`Not a valid recurring job name: ${name}`);
      if (recurring.has(name)) throw new Error(`Recurring job ${name} is already registered`);
      recurring.set(name, { cron, handler });
      if (boss && options.work) {
        const b = boss;
        void started?.then(() => startRecurring(b, name, cron, handler));
      }
    },

    /** Pending jobs (waiting, waiting to retry, or running), oldest first, then failed ones, newest first. */
    async list(): Promise<{ pending: JobRow[]; failed: JobRow[] }> {
      const rows = async (states: string[], order: "asc" | "desc") => {
        const result = await db.execute<{
          id: string;
          name: string;
          state: string;
          retry_count: number;
          retry_limit: number;
          data: unknown;
          output: unknown;
          created_on: Date;
          start_after: Date;
          started_on: Date | null;
          completed_on: Date | null;
        }>(sql`
          select id, name, state, retry_count, retry_limit, data, output, created_on, start_after, started_on,
            completed_on
          from ${sql.identifier(JOBS_SCHEMA)}.job
          where state::text in (${sql.join(
            states.map((s) => sql`${s}`),
            sql`, `,
          )})
          order by created_on ${sql.raw(order)}, id
          limit ${JOBS_PAGE}`);
        return result.rows.map(toRow);
      };
      return {
        pending: await rows(["created", "retry", "active"], "asc"),
        failed: await rows(["failed"], "desc"),
      };
    },

    /** Runs a failed job again (it gets one more attempt). */
    async retry(id: string): Promise<void> {
      const found = await db.execute<{ name: string }>(
        sql`select name from ${sql.identifier(JOBS_SCHEMA)}.job where id = ${id}::uuid and state = 'failed'`,
      );
      const name = found.rows[0]?.name;
      if (!name) throw notFound("No failed job with this id.");
      await running().retry(name, id);
    },

    async start(): Promise<void> {
      if (started) return started;
      const b = new PgBoss({
        ...connectionOf(deps.pool),
        schema: JOBS_SCHEMA,
        // Only working instances send the cron ticks' jobs and run maintenance.
        schedule: options.work,
        supervise: options.work,
        application_name: "atelier-jobs",
        max: 4,
      });
      b.on("error", (error) => logger.error("job queue", { error }));
      boss = b;
      started = (async () => {
        await b.start();
        await b.createQueue(MAIL_QUEUE, retry);
        if (!options.work) return;
        await b.work<MailJob>(
          MAIL_QUEUE,
          { pollingIntervalSeconds: options.pollSeconds, localConcurrency: 2 },
          async ([job]: Job<MailJob>[]) => {
            // A failure is thrown: pg-boss retries it with backoff, then keeps it as failed with the reason.
            await mailer.deliver(job!.data.mail);
          },
        );
        for (const [name, { cron, handler }] of recurring) await startRecurring(b, name, cron, handler);
      })();
      return started;
    },

    /** Stops the workers, letting a running job finish (up to 10 s), and closes the queue's connections. */
    async close(): Promise<void> {
      const b = boss;
      if (!b) return;
      boss = undefined;
      await started?.catch(() => {});
      started = undefined;
      await b.stop({ graceful: true, timeout: 10_000 });
    },
  };
}

export type JobsService = ReturnType<typeof createJobsService>;

/** pg-boss opens its own small pool to the same database as the app's. */
function connectionOf(pool: pg.Pool) {
  const o = pool.options as pg.PoolConfig;
  return {
    connectionString: o.connectionString,
    host: o.host,
    port: o.port,
    user: o.user,
    password: o.password as string | undefined,
    database: o.database,
    ssl: o.ssl,
  };
}

function toRow(r: {
  id: string;
  name: string;
  state: string;
  retry_count: number;
  retry_limit: number;
  data: unknown;
  output: unknown;
  created_on: Date;
  start_after: Date;
  started_on: Date | null;
  completed_on: Date | null;
}): JobRow {
  const mail = r.name === MAIL_QUEUE ? (r.data as Partial<MailJob> | null)?.mail : undefined;
  const failed = r.state === "failed";
  return {
    id: r.id,
    queue: r.name,
    status: jobStatusOf(r.state),
    summary: mail ? `${mail.subject} → ${mail.to}` : r.name,
    // pg-boss counts a retry when it is fetched: attempts made = retry_count + 1 once the job has started.
    attempts: r.started_on ? r.retry_count + 1 : 0,
    maxAttempts: r.retry_limit + 1,
    error: errorOf(r.output),
    createdAt: new Date(r.created_on),
    at: new Date(failed ? (r.completed_on ?? r.start_after) : r.start_after),
  };
}

/** The message of the error pg-boss stored as a job's output. */
export function errorOf(output: unknown): string | null {
  if (!output || typeof output !== "object") return null;
  const o = output as { message?: unknown; value?: unknown };
  if (typeof o.message === "string") return o.message;
  if (typeof o.value === "string") return o.value;
  return null;
}
