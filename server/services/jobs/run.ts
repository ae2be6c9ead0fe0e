import { sql } from "drizzle-orm";
import { PgBoss, type Job } from "pg-boss";
import { reportJobQueues } from "#server/lib/metrics.ts";
import {
  HEARTBEAT_SECONDS,
  JOBS_SCHEMA,
  LOST,
  MAIL_QUEUE,
  RERUN_LOST_WITHIN,
  connectionOf,
  counted,
  mailQueue,
  recurringQueue,
  workerQueue,
  type JobsContext,
  type MailJob,
  type Recurring,
  type Worker,
} from "./model";

export function running(ctx: JobsContext): PgBoss {
  if (!ctx.boss) throw new Error("The job queue is not started (services.start()).");
  return ctx.boss;
}

/**
 * A recurring task's queue and worker; its cron ticks (and first run) only where recurring tasks are scheduled (not in
 * tests, which run them by hand or through trigger()).
 */
export async function startRecurring(ctx: JobsContext, b: PgBoss, name: string, task: Recurring) {
  const { cron, handler, firstRunAfterSeconds } = task;
  await b.createQueue(name, recurringQueue(task));
  // A queue made before heartbeats (decision 061) gets them; its options are otherwise as they were made.
  await b.updateQueue(name, { heartbeatSeconds: HEARTBEAT_SECONDS, expireInSeconds: task.expireInSeconds });
  if (ctx.options.recurring) {
    await b.schedule(name, cron, null, { tz: "UTC" });
    // One run per minute at most however many instances start (pg-boss's throttle key), after the given delay.
    if (firstRunAfterSeconds !== undefined) {
      await b.send(name, null, { singletonKey: "start", singletonSeconds: 60, startAfter: firstRunAfterSeconds });
    }
  }
  await b.work(name, { pollingIntervalSeconds: ctx.options.pollSeconds }, async ([job]) => {
    await counted(name, () => handler(job?.data ?? null));
  });
}

/**
 * Runs again, at once, the jobs pg-boss failed because their worker died (decision 061): a mail waiting to retry
 * after its backoff is due now (its SMTP server did not refuse it), and a recurring task's lost run (a backup asked
 * for) gets one more run if it was lost within the hour. Each loss counts as an attempt, so a job that kills its
 * worker every time still ends failed.
 */
async function rerunLost(ctx: JobsContext, b: PgBoss): Promise<void> {
  const { rows } = await ctx.db.execute<{ id: string; name: string; state: string }>(sql`
    select id, name, state::text from ${sql.identifier(JOBS_SCHEMA)}.job
    where output -> 'value' ->> 'message' = ${LOST}
      and ((state = 'retry' and start_after > now())
        or (state = 'failed' and retry_limit = 0 and completed_on > now() - ${RERUN_LOST_WITHIN}::interval))
    limit 100`);
  for (const job of rows) {
    if (job.state === "retry") await b.update(job.name, undefined, { id: job.id, startAfter: new Date() });
    // A stately queue refuses a second waiting run: one already waits, which does what this one would have.
    else await b.retry(job.name, job.id).catch(() => {});
    ctx.logger.warn({ queue: job.name, id: job.id }, "a job whose worker stopped runs again");
  }
}

/** A work queue's queue and worker (stately per singleton key: one waiting and one running per key at most). */
export async function startWorker(ctx: JobsContext, b: PgBoss, name: string, worker: Worker) {
  await b.createQueue(name, workerQueue(worker, ctx.options));
  await b.updateQueue(name, { heartbeatSeconds: HEARTBEAT_SECONDS, expireInSeconds: worker.expireInSeconds });
  await b.work(name, { pollingIntervalSeconds: ctx.options.pollSeconds, localConcurrency: 2 }, async ([job]) => {
    await counted(name, () => worker.handler(job?.data ?? null));
  });
}

export async function start(ctx: JobsContext): Promise<void> {
  if (ctx.started) return ctx.started;
  const { options, logger } = ctx;
  const b = new PgBoss({
    ...connectionOf(ctx.pool),
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
  ctx.boss = b;
  ctx.made.clear();
  // Its queues' depth in /metrics, read from pg-boss's own counts at each scrape.
  ctx.unreport = reportJobQueues(() => b.getQueues());
  ctx.started = startWork(ctx, b);
  return ctx.started;
}

/** pg-boss started, the mail queue, and on a working instance the workers, the recurring tasks and the lost jobs' sweep. */
async function startWork(ctx: JobsContext, b: PgBoss): Promise<void> {
  const { options, logger } = ctx;
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
      await counted(MAIL_QUEUE, () => ctx.mailer.deliver(job!.data.mail));
    },
  );
  for (const [name, task] of ctx.recurring) await startRecurring(ctx, b, name, task);
  for (const [name, worker] of ctx.workers) await startWorker(ctx, b, name, worker);
  const sweep = () =>
    rerunLost(ctx, b).catch((error: unknown) => logger.error({ error }, "lost jobs could not be run again"));
  await sweep();
  ctx.sweeper = setInterval(() => void sweep(), HEARTBEAT_SECONDS * 1000);
  ctx.sweeper.unref();
}

/**
 * Stops the workers, letting a running job finish (up to 5 s), and closes the queue's connections. Bounded: with
 * the database gone, pg-boss's stop may never settle, and the app's stop must not wait on it (an unfinished job
 * stays in the queue and runs again).
 */
export async function close(ctx: JobsContext): Promise<void> {
  const b = ctx.boss;
  if (!b) return;
  ctx.boss = undefined;
  ctx.unreport();
  clearInterval(ctx.sweeper);
  await ctx.started?.catch(() => {});
  ctx.started = undefined;
  let timer: NodeJS.Timeout | undefined;
  await Promise.race([
    b.stop({ graceful: true, timeout: 5_000 }).catch(() => {}),
    new Promise<void>((resolve) => {
      timer = setTimeout(resolve, 6_000);
    }),
  ]);
  clearTimeout(timer);
}
