import { sql } from "drizzle-orm";
import type pg from "pg";
import { PgBoss, fromDrizzle, type Job } from "pg-boss";
import type { Db } from "../db/client";
import { jobKeys } from "../db/schema";
import { notFound } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { countJobFailure, reportJobQueues } from "../lib/metrics";
import type { Mail, Mailer } from "./mailer";
import { jobStatusOf, type JobStatus } from "#domain/vocabulary.ts";
import { isErasedAddress, type Person } from "#domain/privacy.ts";

/** A drizzle transaction, as `db.transaction(async (tx) => …)` hands it out. */
export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

/** pg-boss's schema, beside the app's tables in the same database. */
export const JOBS_SCHEMA = "pgboss";
/** The queue every mail goes through. */
export const MAIL_QUEUE = "send-mail";
/**
 * A running job's worker touches it every half of this; a job untouched this long has lost its worker (the app was
 * killed) and pg-boss's supervisor, which looks this often, fails it (pg-boss's minimum: 10). docs/decisions/061.
 */
export const HEARTBEAT_SECONDS = 10;
/** What pg-boss writes as the output of a job whose worker stopped touching it. */
const LOST = "job heartbeat timeout";
/** How long after its loss a recurring task's run is still worth running again (a backup asked for, say). */
const RERUN_LOST_WITHIN = "1 hour";

export interface JobsOptions {
  /** Retries after the first attempt, before the job is failed for good. */
  retryLimit: number;
  /** The first retry's delay; each further one doubles it (with jitter), up to an hour. */
  retryDelaySeconds: number;
  /** How often an idle worker looks for work. */
  pollSeconds: number;
  /** false: this instance only queues jobs; others run them (and the recurring tasks). */
  work: boolean;
  /** false: recurring tasks (every()) are not scheduled by this instance (tests call them directly). */
  recurring: boolean;
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

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** pg-boss's queue names: letters, digits, `-`, `_`, `.` and `/`. */
const NAME = /^[a-z][a-z0-9-]{0,49}$/;

interface MailJob {
  key: string;
  mail: Mail;
}

interface Recurring {
  cron: string;
  /** Runs a tick's job, or one sent by trigger() with its data (null for a tick). */
  handler: (data: unknown) => Promise<void>;
  /** Also run once this long after the app starts (one run, however many instances start). */
  firstRunAfterSeconds: number | undefined;
  /** What it does, in words, for the jobs screen. */
  title: string;
  /** How long one run may take before it counts as failed (15 minutes unless said). */
  expireInSeconds: number;
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
  const recurring = new Map<string, Recurring>();
  const workers = new Map<string, Worker>();
  let boss: PgBoss | undefined;
  let started: Promise<void> | undefined;
  let unreport = () => {};
  let sweeper: NodeJS.Timeout | undefined;

  const retry = mailRetry(options);
  /** The work queues this instance made sure exist (send() makes one at most once: it takes pg-boss's lock). */
  const made = new Set<string>();

  function running(): PgBoss {
    if (!boss) throw new Error("The job queue is not started (services.start()).");
    return boss;
  }

  /**
   * A recurring task's queue and worker; its cron ticks (and first run) only where recurring tasks are scheduled (not in
   * tests, which run them by hand or through trigger()).
   */
  async function startRecurring(b: PgBoss, name: string, task: Recurring) {
    const { cron, handler, firstRunAfterSeconds } = task;
    await b.createQueue(name, recurringQueue(task));
    // A queue made before heartbeats (decision 061) gets them; its options are otherwise as they were made.
    await b.updateQueue(name, { heartbeatSeconds: HEARTBEAT_SECONDS, expireInSeconds: task.expireInSeconds });
    if (options.recurring) {
      await b.schedule(name, cron, null, { tz: "UTC" });
      // One run per minute at most however many instances start (pg-boss's throttle key), after the given delay.
      if (firstRunAfterSeconds !== undefined) {
        await b.send(name, null, { singletonKey: "start", singletonSeconds: 60, startAfter: firstRunAfterSeconds });
      }
    }
    await b.work(name, { pollingIntervalSeconds: options.pollSeconds }, async ([job]) => {
      await counted(name, () => handler(job?.data ?? null));
    });
  }

  /**
   * Runs again, at once, the jobs pg-boss failed because their worker died (decision 061): a mail waiting to retry
   * after its backoff is due now (its SMTP server did not refuse it), and a recurring task's lost run (a backup asked
   * for) gets one more run if it was lost within the hour. Each loss counts as an attempt, so a job that kills its
   * worker every time still ends failed.
   */
  async function rerunLost(b: PgBoss): Promise<void> {
    const { rows } = await db.execute<{ id: string; name: string; state: string }>(sql`
      select id, name, state::text from ${sql.identifier(JOBS_SCHEMA)}.job
      where output -> 'value' ->> 'message' = ${LOST}
        and ((state = 'retry' and start_after > now())
          or (state = 'failed' and retry_limit = 0 and completed_on > now() - ${RERUN_LOST_WITHIN}::interval))
      limit 100`);
    for (const job of rows) {
      if (job.state === "retry") await b.update(job.name, undefined, { id: job.id, startAfter: new Date() });
      // A stately queue refuses a second waiting run: one already waits, which does what this one would have.
      else await b.retry(job.name, job.id).catch(() => {});
      logger.warn({ queue: job.name, id: job.id }, "a job whose worker stopped runs again");
    }
  }

  /** A work queue's queue and worker (stately per singleton key: one waiting and one running per key at most). */
  async function startWorker(b: PgBoss, name: string, worker: Worker) {
    await b.createQueue(name, workerQueue(worker, options));
    await b.updateQueue(name, { heartbeatSeconds: HEARTBEAT_SECONDS, expireInSeconds: worker.expireInSeconds });
    await b.work(name, { pollingIntervalSeconds: options.pollSeconds, localConcurrency: 2 }, async ([job]) => {
      await counted(name, () => worker.handler(job?.data ?? null));
    });
  }

  async function queueIn(tx: Tx, mail: Mail, key: string): Promise<boolean> {
    if (!isJobKey(key)) throw new Error(`Not a valid job key: ${JSON.stringify(key)}`);
    // An erased person's placeholder address (decision 045) is never written to: nothing would arrive.
    if (isErasedAddress(mail.to)) return false;
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
     * A recurring task: `handler` runs once per `cron` tick (UTC, five fields) across all instances, never two runs at
     * once. Call before start(); a later call starts it at once. `firstRunAfterSeconds`: also run it once that long
     * after the start.
     */
    every(
      name: string,
      cron: string,
      handler: (data: unknown) => Promise<void>,
      extra: { firstRunAfterSeconds?: number; title?: string; expireInSeconds?: number } = {},
    ): void {
      if (!NAME.test(name) || name === MAIL_QUEUE) throw new Error(`Not a valid recurring job name: ${name}`);
      if (recurring.has(name)) throw new Error(`Recurring job ${name} is already registered`);
      const task = {
        cron,
        handler,
        firstRunAfterSeconds: extra.firstRunAfterSeconds,
        title: extra.title ?? name,
        expireInSeconds: extra.expireInSeconds ?? 15 * 60,
      };
      recurring.set(name, task);
      if (boss && options.work) {
        const b = boss;
        void started
          ?.then(() => startRecurring(b, name, task))
          .catch((error: unknown) => logger.error({ name, error }, "recurring job could not start"));
      }
    },

    /**
     * A queue of work sent by the app itself (a newsletter's batches): `handler` runs each job, retried with the mail's
     * backoff when it throws and at once when its worker died (decision 061). One job waits and one runs per
     * singleton key at most (pg-boss's stately policy). Call before start().
     */
    worker(
      name: string,
      handler: (data: unknown) => Promise<void>,
      extra: { expireInSeconds?: number; title?: string } = {},
    ): void {
      if (!NAME.test(name) || name === MAIL_QUEUE || recurring.has(name)) throw new Error(`Not a valid queue: ${name}`);
      if (workers.has(name)) throw new Error(`Queue ${name} is already registered`);
      const worker = { handler, expireInSeconds: extra.expireInSeconds ?? 15 * 60, title: extra.title ?? name };
      workers.set(name, worker);
      if (boss && options.work) {
        const b = boss;
        void started
          ?.then(() => startWorker(b, name, worker))
          .catch((error: unknown) => logger.error({ name, error }, "queue could not start"));
      }
    },

    /**
     * Sends a job to a work queue, keyed (false when one with this key already waits); in the caller's transaction
     * when given, so it runs only if that commits. `startAfterSeconds`: not before then.
     */
    async send(
      name: string,
      data: object,
      options: { singletonKey: string; startAfterSeconds?: number; tx?: Tx },
    ): Promise<boolean> {
      const worker = workers.get(name);
      if (!worker) throw new Error(`No queue ${name}`);
      const b = running();
      if (!made.has(name)) {
        await b.createQueue(name, workerQueue(worker, deps.options));
        made.add(name);
      }
      const id = await b.send(name, data, {
        singletonKey: options.singletonKey,
        ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
        ...(options.tx ? { db: fromDrizzle(options.tx, sql) } : {}),
      });
      return id !== null;
    },

    /**
     * Runs a recurring task now, once across the instances, with `data` for its handler: false when a run of it is
     * already waiting (the queue keeps one waiting and one running at most).
     */
    async trigger(name: string, data: object | null = null): Promise<boolean> {
      const task = recurring.get(name);
      if (!task) throw new Error(`No recurring job ${name}`);
      const b = running();
      await b.createQueue(name, recurringQueue(task));
      return (await b.send(name, data)) !== null;
    },

    /** Whether a run of this recurring task waits or runs now. */
    async isPending(name: string): Promise<boolean> {
      const { rows } = await db.execute<{ found: boolean }>(
        sql`select exists (select 1 from ${sql.identifier(JOBS_SCHEMA)}.job
          where name = ${name} and state::text in ('created', 'retry', 'active')) as found`,
      );
      return Boolean(rows[0]?.found);
    },

    /** Pending jobs (waiting, waiting to retry, or running), oldest first, then failed ones, newest first. */
    async list(): Promise<{ pending: JobRow[]; failed: JobRow[] }> {
      const rows = async (states: string[], order: "asc" | "desc") => {
        const result = await db.execute<JobTableRow>(sql`
          select id, name, state, retry_count, retry_limit, data, output, created_on, start_after, started_on,
            completed_on
          from ${sql.identifier(JOBS_SCHEMA)}.job
          where state::text in (${sql.join(
            states.map((s) => sql`${s}`),
            sql`, `,
          )})
          order by created_on ${sql.raw(order)}, id
          limit ${JOBS_PAGE}`);
        return result.rows.map((r) => toRow(r, recurring.get(r.name)?.title ?? workers.get(r.name)?.title));
      };
      return {
        pending: await rows(["created", "retry", "active"], "asc"),
        failed: await rows(["failed"], "desc"),
      };
    },

    /** Runs a failed job again (it gets one more attempt). */
    async retry(id: string): Promise<void> {
      if (!UUID.test(id)) throw notFound("No failed job with this id.");
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
        // Only working instances send the cron ticks' jobs, run maintenance and listen for new jobs.
        schedule: options.work,
        supervise: options.work,
        useListenNotify: options.work,
        application_name: "atelier-jobs",
        max: 4,
        // Jobs whose worker died are failed (or retried) this soon after their heartbeat stops (decision 061): the
        // supervisor's pass looks at a queue's jobs only when its monitor interval is due, hence both.
        superviseIntervalSeconds: HEARTBEAT_SECONDS,
        monitorIntervalSeconds: HEARTBEAT_SECONDS,
      });
      b.on("error", (error) => logger.error({ error }, "job queue"));
      boss = b;
      made.clear();
      // Its queues' depth in /metrics, read from pg-boss's own counts at each scrape.
      unreport = reportJobQueues(() => b.getQueues());
      started = (async () => {
        await b.start();
        await b.createQueue(MAIL_QUEUE, mailQueue(options));
        await b.updateQueue(MAIL_QUEUE, { heartbeatSeconds: HEARTBEAT_SECONDS });
        if (!options.work) return;
        await b.work<MailJob>(
          MAIL_QUEUE,
          {
            pollingIntervalSeconds: options.pollSeconds,
            // Retries come due without a notification: keep looking as often as without LISTEN/NOTIFY.
            notifyPollingIntervalSeconds: options.pollSeconds,
            localConcurrency: 2,
          },
          async ([job]: Job<MailJob>[]) => {
            // A failure is thrown: pg-boss retries it with backoff, then keeps it as failed with the reason.
            await counted(MAIL_QUEUE, () => mailer.deliver(job!.data.mail));
          },
        );
        for (const [name, task] of recurring) await startRecurring(b, name, task);
        for (const [name, worker] of workers) await startWorker(b, name, worker);
        const sweep = () =>
          rerunLost(b).catch((error: unknown) => logger.error({ error }, "lost jobs could not be run again"));
        await sweep();
        sweeper = setInterval(() => void sweep(), HEARTBEAT_SECONDS * 1000);
        sweeper.unref();
      })();
      return started;
    },

    /**
     * Stops the workers, letting a running job finish (up to 5 s), and closes the queue's connections. Bounded: with
     * the database gone, pg-boss's stop may never settle, and the app's stop must not wait on it (an unfinished job
     * stays in the queue and runs again).
     */
    async close(): Promise<void> {
      const b = boss;
      if (!b) return;
      boss = undefined;
      unreport();
      clearInterval(sweeper);
      await started?.catch(() => {});
      started = undefined;
      let timer: NodeJS.Timeout | undefined;
      await Promise.race([
        b.stop({ graceful: true, timeout: 5_000 }).catch(() => {}),
        new Promise<void>((resolve) => {
          timer = setTimeout(resolve, 6_000);
        }),
      ]);
      clearTimeout(timer);
    },
  };
}

export type JobsService = ReturnType<typeof createJobsService>;

/** Runs a job's work; a failure is counted for its queue (/metrics) and thrown on for pg-boss to retry or keep. */
async function counted(queue: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    countJobFailure(queue);
    throw error;
  }
}

/**
 * Installs (or migrates) the queue's schema and its mail queue, then lets go: what start() does first, for a database
 * that is a template for others (the tests' clones start with it in place).
 */
export async function installJobQueue(
  pool: pg.Pool,
  options: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">,
  /** More to do with the queue before it lets go (a restore creates its queues and queues its jobs again). */
  then?: (boss: PgBoss) => Promise<void>,
) {
  const boss = new PgBoss({
    ...connectionOf(pool),
    schema: JOBS_SCHEMA,
    schedule: false,
    supervise: false,
    registerInstance: false,
    max: 1,
  });
  boss.on("error", () => {
    /* the caller sees the failure of the call that met it */
  });
  await boss.start();
  try {
    await boss.createQueue(MAIL_QUEUE, mailQueue(options));
    await then?.(boss);
  } finally {
    await boss.stop({ graceful: false });
  }
}

/**
 * A recurring task's queue. "stately": at most one run waiting and one running, so runs never overlap or pile up,
 * whatever the number of instances. A missed tick is not worth a retry (the next one comes); a failure stays visible
 * as failed.
 */
const recurringQueue = (task: Pick<Recurring, "expireInSeconds">) =>
  ({
    policy: "stately",
    retryLimit: 0,
    expireInSeconds: task.expireInSeconds,
    heartbeatSeconds: HEARTBEAT_SECONDS,
  }) as const;

interface Worker {
  handler: (data: unknown) => Promise<void>;
  expireInSeconds: number;
  /** What a job does, in words, for the jobs screen. */
  title: string;
}

/** A work queue: retried like a mail, one waiting and one running per singleton key. */
const workerQueue = (worker: Worker, options: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">) =>
  ({
    ...mailRetry(options),
    policy: "stately",
    notify: true,
    expireInSeconds: worker.expireInSeconds,
    heartbeatSeconds: HEARTBEAT_SECONDS,
  }) as const;

const mailRetry = (options: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">) => ({
  retryLimit: options.retryLimit,
  retryDelay: options.retryDelaySeconds,
  retryBackoff: true,
  retryDelayMax: 3600,
});

// A queued mail wakes the workers at once (LISTEN/NOTIFY, on commit); polling stays as the fallback.
const mailQueue = (options: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">) => ({
  ...mailRetry(options),
  notify: true,
  heartbeatSeconds: HEARTBEAT_SECONDS,
});

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

/** A row of pg-boss's job table, as the jobs list reads it. */
type JobTableRow = {
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
};

function toRow(r: JobTableRow, title: string | undefined): JobRow {
  const mail = r.name === MAIL_QUEUE ? (r.data as Partial<MailJob> | null)?.mail : undefined;
  const failed = r.state === "failed";
  return {
    id: r.id,
    queue: r.name,
    status: jobStatusOf(r.state),
    summary: mail ? `${mail.subject} → ${mail.to}` : (title ?? r.name),
    // pg-boss counts a retry when it is fetched: attempts made = retry_count + 1 once the job has started.
    attempts: r.started_on ? r.retry_count + 1 : 0,
    maxAttempts: r.retry_limit + 1,
    error: errorOf(r.output),
    createdAt: new Date(r.created_on),
    at: new Date(failed ? (r.completed_on ?? r.start_after) : r.start_after),
  };
}

/** pg-boss's own reasons for failing a job, in words. */
const QUEUE_REASONS: Record<string, string> = {
  [LOST]: "The app running it stopped (a crash or a restart) before it finished.",
  "job timed out": "It ran longer than its time limit and was stopped.",
};

/** The message of the error pg-boss stored as a job's output (its own reasons in words). */
export function errorOf(output: unknown): string | null {
  if (!output || typeof output !== "object") return null;
  const o = output as { message?: unknown; value?: unknown };
  const value = o.value as { message?: unknown } | null | undefined;
  const message =
    typeof o.message === "string"
      ? o.message
      : typeof o.value === "string"
        ? o.value
        : typeof value?.message === "string"
          ? value.message
          : null;
  return message === null ? null : (QUEUE_REASONS[message] ?? message);
}

/**
 * Forgets the mails to or about a person (decision 086): every mail job, waiting, running, failed or done, whose data
 * holds one of their addresses. One not sent yet never goes; one sent keeps no copy of its text here.
 */
export async function forgetPerson(tx: Tx, person: Person): Promise<void> {
  if (!person.emails.length) return;
  await tx.execute(sql`
    delete from ${sql.identifier(JOBS_SCHEMA)}.job
    where name = ${MAIL_QUEUE}
      and exists (select 1 from unnest(${sql.param(person.emails)}::text[]) as e(email)
                  where position(e.email in lower(data::text)) > 0)`);
}
