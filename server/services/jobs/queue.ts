import { sql } from "drizzle-orm";
import { fromDrizzle, type PgBoss } from "pg-boss";
import { isErasedAddress } from "#domain/privacy.ts";
import type { Db } from "#server/db/client.ts";
import { jobKeys } from "#server/db/schema.ts";
import { notFound } from "#server/lib/errors.ts";
import type { Mail } from "../mailer";
import {
  JOBS_SCHEMA,
  MAIL_QUEUE,
  NAME,
  UUID,
  isJobKey,
  recurringQueue,
  workerQueue,
  type JobsContext,
  type MailJob,
  type Tx,
} from "./model";
import { running, startRecurring, startWorker } from "./run";

async function queueIn(ctx: JobsContext, tx: Tx, mail: Mail, key: string): Promise<boolean> {
  if (!isJobKey(key)) throw new Error(`Not a valid job key: ${JSON.stringify(key)}`);
  // An erased person's placeholder address (decision 045) is never written to: nothing would arrive.
  if (isErasedAddress(mail.to)) return false;
  const inserted = await tx
    .insert(jobKeys)
    .values({ key, queue: MAIL_QUEUE, queuedAt: ctx.now() })
    .onConflictDoNothing()
    .returning({ key: jobKeys.key });
  if (!inserted.length) return false;
  const data: MailJob = { key, mail };
  await running(ctx).send(MAIL_QUEUE, data, { ...ctx.retry, db: fromDrizzle(tx, sql) });
  return true;
}

/**
 * Queues an already-composed mail inside the caller's transaction: it is sent only if that transaction commits,
 * and then survives any crash. false (and nothing queued) when `key` was queued before: each key is sent at most
 * once, ever. Without a transaction (better-auth's callbacks), pass the db: the key and the job commit together.
 */
export async function queueMail(ctx: JobsContext, tx: Tx | Db, mail: Mail, key: string): Promise<boolean> {
  if ("rollback" in tx) return queueIn(ctx, tx, mail, key);
  return tx.transaction((inner) => queueIn(ctx, inner, mail, key));
}

/**
 * A recurring task: `handler` runs once per `cron` tick (UTC, five fields) across all instances, never two runs at
 * once. Call before start(); a later call starts it at once. `firstRunAfterSeconds`: also run it once that long
 * after the start.
 */
export function every(
  ctx: JobsContext,
  name: string,
  cron: string,
  handler: (data: unknown) => Promise<void>,
  extra: { firstRunAfterSeconds?: number; title?: string; expireInSeconds?: number } = {},
): void {
  if (!NAME.test(name) || name === MAIL_QUEUE) throw new Error(`Not a valid recurring job name: ${name}`);
  if (ctx.recurring.has(name)) throw new Error(`Recurring job ${name} is already registered`);
  const task = {
    cron,
    handler,
    firstRunAfterSeconds: extra.firstRunAfterSeconds,
    title: extra.title ?? name,
    expireInSeconds: extra.expireInSeconds ?? 15 * 60,
  };
  ctx.recurring.set(name, task);
  startLate(ctx, name, (b) => startRecurring(ctx, b, name, task), "recurring job could not start");
}

/**
 * A queue of work sent by the app itself (a newsletter's batches): `handler` runs each job, retried with the mail's
 * backoff when it throws and at once when its worker died (decision 061). One job waits and one runs per
 * singleton key at most (pg-boss's stately policy). Call before start().
 */
export function worker(
  ctx: JobsContext,
  name: string,
  handler: (data: unknown) => Promise<void>,
  extra: { expireInSeconds?: number; title?: string } = {},
): void {
  if (!NAME.test(name) || name === MAIL_QUEUE || ctx.recurring.has(name)) throw new Error(`Not a valid queue: ${name}`);
  if (ctx.workers.has(name)) throw new Error(`Queue ${name} is already registered`);
  const worker = { handler, expireInSeconds: extra.expireInSeconds ?? 15 * 60, title: extra.title ?? name };
  ctx.workers.set(name, worker);
  startLate(ctx, name, (b) => startWorker(ctx, b, name, worker), "queue could not start");
}

/** A task or queue registered after start(): on a working instance, started once the queue is. */
function startLate(ctx: JobsContext, name: string, start: (b: PgBoss) => Promise<void>, failure: string): void {
  if (ctx.boss && ctx.options.work) {
    const b = ctx.boss;
    void ctx.started?.then(() => start(b)).catch((error: unknown) => ctx.logger.error({ name, error }, failure));
  }
}

/**
 * Sends a job to a work queue, keyed (false when one with this key already waits); in the caller's transaction
 * when given, so it runs only if that commits. `startAfterSeconds`: not before then.
 */
export async function send(
  ctx: JobsContext,
  name: string,
  data: object,
  options: { singletonKey: string; startAfterSeconds?: number; tx?: Tx },
): Promise<boolean> {
  const worker = ctx.workers.get(name);
  if (!worker) throw new Error(`No queue ${name}`);
  const b = running(ctx);
  if (!ctx.made.has(name)) {
    await b.createQueue(name, workerQueue(worker, ctx.options));
    ctx.made.add(name);
  }
  const id = await b.send(name, data, {
    singletonKey: options.singletonKey,
    ...(options.startAfterSeconds ? { startAfter: options.startAfterSeconds } : {}),
    ...(options.tx ? { db: fromDrizzle(options.tx, sql) } : {}),
  });
  return id !== null;
}

/**
 * Runs a recurring task now, once across the instances, with `data` for its handler: false when a run of it is
 * already waiting (the queue keeps one waiting and one running at most).
 */
export async function trigger(ctx: JobsContext, name: string, data: object | null = null): Promise<boolean> {
  const task = ctx.recurring.get(name);
  if (!task) throw new Error(`No recurring job ${name}`);
  const b = running(ctx);
  await b.createQueue(name, recurringQueue(task));
  return (await b.send(name, data)) !== null;
}

/** Runs a failed job again (it gets one more attempt). */
export async function retry(ctx: JobsContext, id: string): Promise<void> {
  if (!UUID.test(id)) throw notFound("No failed job with this id.");
  const found = await ctx.db.execute<{ name: string }>(
    sql`select name from ${sql.identifier(JOBS_SCHEMA)}.job where id = ${id}::uuid and state = 'failed'`,
  );
  const name = found.rows[0]?.name;
  if (!name) throw notFound("No failed job with this id.");
  await running(ctx).retry(name, id);
}
