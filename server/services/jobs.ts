import { sql } from "drizzle-orm";
import type pg from "pg";
import { PgBoss } from "pg-boss";
import { withDeps } from "#server/lib/with-deps.ts";
import type { Person } from "#domain/privacy.ts";
import {
  JOBS_SCHEMA,
  MAIL_QUEUE,
  connectionOf,
  mailQueue,
  mailRetry,
  type JobsContext,
  type JobsDeps,
  type JobsOptions,
  type Tx,
} from "./jobs/model";
import { isPending, list } from "./jobs/queries";
import { every, queueMail, retry, send, trigger, worker } from "./jobs/queue";
import { close, start } from "./jobs/run";

export {
  HEARTBEAT_SECONDS,
  JOBS_PAGE,
  JOBS_SCHEMA,
  MAIL_QUEUE,
  errorOf,
  isJobKey,
  jobKey,
  type JobRow,
  type JobsOptions,
  type Tx,
} from "./jobs/model";

/**
 * The durable job queue (docs/decisions/022): pg-boss on the app's PostgreSQL. A mail is queued in the caller's
 * transaction and sent by a worker with retries and exponential backoff; recurring tasks run once per cron tick
 * across every instance. Workers start with the app (start()) and stop with it (close()). Mails, tasks and work queues
 * are in jobs/queue.ts, pg-boss's start and stop in jobs/run.ts, each a function over one context this factory builds
 * (decision 085).
 */
export function createJobsService(deps: JobsDeps) {
  const ctx: JobsContext = {
    ...deps,
    recurring: new Map(),
    workers: new Map(),
    boss: undefined,
    started: undefined,
    unreport: () => {},
    sweeper: undefined,
    retry: mailRetry(deps.options),
    made: new Set(),
  };
  return {
    queueMail: withDeps(ctx, queueMail),
    every: withDeps(ctx, every),
    worker: withDeps(ctx, worker),
    send: withDeps(ctx, send),
    trigger: withDeps(ctx, trigger),
    isPending: withDeps(ctx, isPending),
    list: withDeps(ctx, list),
    retry: withDeps(ctx, retry),
    start: withDeps(ctx, start),
    close: withDeps(ctx, close),
  };
}

export type JobsService = ReturnType<typeof createJobsService>;

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
