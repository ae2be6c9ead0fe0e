import type pg from "pg";
import type { PgBoss } from "pg-boss";
import type { Db } from "#server/db/client.ts";
import type { Logger } from "#server/lib/logger.ts";
import { countJobFailure } from "#server/lib/metrics.ts";
import type { Mail, Mailer } from "../mailer";
import { jobStatusOf, type JobStatus } from "#domain/vocabulary.ts";

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
export const LOST = "job heartbeat timeout";
/** How long after its loss a recurring task's run is still worth running again (a backup asked for, say). */
export const RERUN_LOST_WITHIN = "1 hour";

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

export const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;

/** pg-boss's queue names: letters, digits, `-`, `_`, `.` and `/`. */
export const NAME = /^[a-z][a-z0-9-]{0,49}$/;

export interface MailJob {
  key: string;
  mail: Mail;
}

export interface Recurring {
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

export interface JobsDeps {
  db: Db;
  pool: pg.Pool;
  mailer: Mailer;
  logger: Logger;
  now: () => Date;
  options: JobsOptions;
}

/** The queue's dependencies and this instance's state (its tasks and queues, pg-boss once started): built once. */
export interface JobsContext extends JobsDeps {
  recurring: Map<string, Recurring>;
  workers: Map<string, Worker>;
  boss: PgBoss | undefined;
  started: Promise<void> | undefined;
  unreport: () => void;
  sweeper: NodeJS.Timeout | undefined;
  retry: ReturnType<typeof mailRetry>;
  /** The work queues this instance made sure exist (send() makes one at most once: it takes pg-boss's lock). */
  made: Set<string>;
}

/** Runs a job's work; a failure is counted for its queue (/metrics) and thrown on for pg-boss to retry or keep. */
export async function counted(queue: string, work: () => Promise<void>): Promise<void> {
  try {
    await work();
  } catch (error) {
    countJobFailure(queue);
    throw error;
  }
}

/**
 * A recurring task's queue. "stately": at most one run waiting and one running, so runs never overlap or pile up,
 * whatever the number of instances. A missed tick is not worth a retry (the next one comes); a failure stays visible
 * as failed.
 */
export const recurringQueue = (task: Pick<Recurring, "expireInSeconds">) =>
  ({
    policy: "stately",
    retryLimit: 0,
    expireInSeconds: task.expireInSeconds,
    heartbeatSeconds: HEARTBEAT_SECONDS,
  }) as const;

export interface Worker {
  handler: (data: unknown) => Promise<void>;
  expireInSeconds: number;
  /** What a job does, in words, for the jobs screen. */
  title: string;
}

/** A work queue: retried like a mail, one waiting and one running per singleton key. */
export const workerQueue = (worker: Worker, options: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">) =>
  ({
    ...mailRetry(options),
    policy: "stately",
    notify: true,
    expireInSeconds: worker.expireInSeconds,
    heartbeatSeconds: HEARTBEAT_SECONDS,
  }) as const;

export const mailRetry = (options: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">) => ({
  retryLimit: options.retryLimit,
  retryDelay: options.retryDelaySeconds,
  retryBackoff: true,
  retryDelayMax: 3600,
});

// A queued mail wakes the workers at once (LISTEN/NOTIFY, on commit); polling stays as the fallback.
export const mailQueue = (options: Pick<JobsOptions, "retryLimit" | "retryDelaySeconds">) => ({
  ...mailRetry(options),
  notify: true,
  heartbeatSeconds: HEARTBEAT_SECONDS,
});

/** pg-boss opens its own small pool to the same database as the app's. */
export function connectionOf(pool: pg.Pool) {
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
export type JobTableRow = {
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

export function toRow(r: JobTableRow, title: string | undefined): JobRow {
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
