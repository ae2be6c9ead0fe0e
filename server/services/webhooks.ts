import { randomBytes, randomUUID } from "node:crypto";
import { and, desc, eq, sql } from "drizzle-orm";
import type { PageInfo } from "#domain/pagination.ts";
import { parseWith } from "#domain/validation.ts";
import {
  ALL_EVENTS,
  DELIVERY_STATES,
  ERROR_MAX,
  PAYLOAD_VERSION,
  TEST_EVENT,
  endpointSchema,
  outcomeOf,
  pausesNow,
  retryDelay,
  urlProblem,
  type DeliveryState,
  type EndpointState,
  type WebhookEvent,
} from "#domain/webhooks.ts";
import type { Person } from "#domain/privacy.ts";
import type { Db } from "../db/client";
import { user, webhookDeliveries, webhookEndpoints } from "../db/schema";
import { AppError, badRequest, isId, notFound } from "../lib/errors";
import type { Logger } from "../lib/logger";
import { pageOf } from "../lib/paging";
import { audited, type Actor } from "./activity";
import { jobKey, type JobsService, type Tx } from "./jobs";
import type { MailsService } from "./mails";
import { checkEndpointHost } from "./webhooks/addresses";
import { attempt, type AttemptResult } from "./webhooks/send";

/** The pg-boss queue that sends deliveries: one job per event (its id the job's key), each draining what is due. */
export const WEBHOOK_QUEUE = "webhook-deliveries";
/** Rows a worker claims at a time, and how many of them it sends at once. */
const BATCH = 50;
const PARALLEL = 10;
/** A worker's lease on the rows it claimed: longer than any attempt, so a dead worker's rows come back. */
const LEASE_SECONDS = 120;
/** A drain stops after this long (the next job or the minute's sweep goes on), well within a job's time limit. */
const DRAIN_BUDGET_MS = 5 * 60_000;
/** Endpoints an install may have (a screen, not a platform). */
const ENDPOINTS_MAX = 100;
/** The membership ends announced by the job: ends at most this long ago (a scan after downtime still sends them). */
const ENDED_LOOKBACK_DAYS = 7;

/** An endpoint as the screens and the REST calls show it (the secret only where an Admin asks for it). */
export interface EndpointView {
  id: string;
  url: string;
  description: string;
  events: string[];
  state: EndpointState;
  stateReason: string;
  failingSince: string | null;
  owner: string | null;
  createdAt: string;
  updatedAt: string;
  /** Deliveries waiting or being retried, and failed since the last one delivered. */
  pending: number;
  failed: number;
}

export interface DeliveryView {
  id: string;
  eventId: string;
  eventType: string;
  state: DeliveryState;
  attempts: number;
  lastStatus: number | null;
  lastError: string | null;
  nextAttemptAt: string | null;
  createdAt: string;
  deliveredAt: string | null;
  payload: Record<string, unknown>;
}

type EndpointRow = typeof webhookEndpoints.$inferSelect;
type Claimed = {
  id: string;
  endpoint_id: string;
  event_id: string;
  payload: Record<string, unknown>;
  attempts: number;
  url: string;
  secret: string;
};

const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A fresh Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
/** A message id (Standard Webhooks' `webhook-id`): one per event, the same on every attempt and every endpoint. */
export const newEventId = () => `msg_${randomUUID().replaceAll("-", "")}`;

/** The fields of an endpoint its activity entries keep (never its secret). */
const audited_ = (e: Pick<EndpointRow, "url" | "description" | "events" | "state">) => ({
  url: e.url,
  description: e.description,
  events: e.events,
  state: e.state,
});

/**
 * Outgoing webhooks (issue 37 part 2, docs/decisions/078): the only writer of webhook_endpoints, webhook_deliveries
 * and webhook_membership_ends. Services call `emitTx` inside the transaction of the change an event reports: one
 * `INSERT … SELECT` writes a delivery per subscribed endpoint (the outbox) and queues a job in the same transaction,
 * so a change rolled back sends nothing. The job's worker claims due deliveries (a lease, SKIP LOCKED), POSTs each
 * signed to the Standard Webhooks spec through the SSRF guard, and records the answer: delivered; retried on the
 * schedule (WEBHOOKS_RETRY_SCHEDULE); failed after the last attempt (the endpoint shown failing on Today, paused and
 * its owner mailed after failing for days); or, on 410 Gone, the endpoint disabled at once.
 */
export function createWebhooksService(deps: {
  db: Db;
  jobs: Pick<JobsService, "send" | "worker" | "every">;
  mails: Pick<MailsService, "queue">;
  logger: Logger;
  now: () => Date;
  options: { allowPrivate: boolean; retrySchedule: readonly number[]; timeoutMs: number };
  /** Days an endpoint fails before it is paused (5). */
  pauseAfterDays?: number;
}) {
  const { db, jobs, mails, logger, now, options } = deps;

  /** Wakes a worker: in `tx` when given (it runs only if that commits), `afterSeconds` later when given. */
  const wake = (key: string, tx?: Tx, afterSeconds?: number) =>
    jobs.send(WEBHOOK_QUEUE, {}, { singletonKey: key, tx, startAfterSeconds: afterSeconds });

  /** The payload every receiver reads: versioned, the event's type, when it happened, and its data. */
  const payloadOf = (type: string, at: Date, data: object) => ({
    type,
    version: PAYLOAD_VERSION,
    timestamp: at.toISOString(),
    data,
  });

  /** A parsed, checked endpoint form: its shape (zod), the address's scheme, and where its host resolves. */
  async function parseEndpoint(input: unknown) {
    const parsed = parseWith(endpointSchema, input ?? {});
    if (!parsed.ok) throw badRequest(parsed.errors);
    const problem = urlProblem(parsed.data.url, options.allowPrivate);
    if (problem) throw badRequest([{ field: "url", message: problem }]);
    await checkEndpointHost(new URL(parsed.data.url), options.allowPrivate);
    return parsed.data;
  }

  async function endpointRow(id: string): Promise<EndpointRow> {
    if (!isId(id)) throw notFound("Webhook endpoint not found");
    const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
    if (!row) throw notFound("Webhook endpoint not found");
    return row;
  }

  /** Endpoints with their owner and counts, newest first: one statement. */
  async function views(where = sql`true`): Promise<EndpointView[]> {
    const { rows } = await db.execute<{
      id: string;
      url: string;
      description: string;
      events: string[];
      state: EndpointState;
      state_reason: string;
      failing_since: Date | null;
      owner: string | null;
      created_at: Date;
      updated_at: Date;
      pending: number;
      failed: number;
    }>(sql`
      select e.id, e.url, e.description, e.events, e.state, e.state_reason, e.failing_since, u.email as owner,
        e.created_at, e.updated_at,
        (select count(*)::int from ${webhookDeliveries} d
          where d.endpoint_id = e.id and d.state in ('pending', 'failing')) as pending,
        (select count(*)::int from ${webhookDeliveries} d
          where d.endpoint_id = e.id and d.state = 'failed'
            and d.updated_at >= coalesce(e.failing_since, 'infinity'::timestamptz)) as failed
      from ${webhookEndpoints} e left join ${user} u on u.id = e.created_by
      where ${where}
      order by e.created_at desc, e.id desc
      limit ${ENDPOINTS_MAX}`);
    return rows.map((r) => ({
      id: r.id,
      url: r.url,
      description: r.description,
      events: r.events,
      state: r.state,
      stateReason: r.state_reason,
      failingSince: iso(r.failing_since),
      owner: r.owner,
      createdAt: iso(r.created_at)!,
      updatedAt: iso(r.updated_at)!,
      pending: r.pending,
      failed: r.failed,
    }));
  }

  /** Claims up to BATCH due deliveries of active endpoints (a lease, so two workers never send one row at once). */
  async function claim(): Promise<Claimed[]> {
    const t = now();
    const { rows } = await db.execute<Claimed>(sql`
      update ${webhookDeliveries} d
      set locked_until = ${t.toISOString()}::timestamptz + make_interval(secs => ${LEASE_SECONDS})
      from (
        select d2.id from ${webhookDeliveries} d2
        join ${webhookEndpoints} e2 on e2.id = d2.endpoint_id and e2.state = 'active'
        where d2.state in ('pending', 'failing') and d2.next_attempt_at <= ${t.toISOString()}::timestamptz
          and (d2.locked_until is null or d2.locked_until < ${t.toISOString()}::timestamptz)
        order by d2.next_attempt_at
        limit ${BATCH}
        for update of d2 skip locked
      ) c, ${webhookEndpoints} e
      where d.id = c.id and e.id = d.endpoint_id
      returning d.id, d.endpoint_id, d.event_id, d.payload, d.attempts, e.url, e.secret`);
    return rows;
  }

  /** The owner of an endpoint hears it was paused (once per pause). */
  async function mailOwnerTx(tx: Tx, endpoint: EndpointRow, at: Date) {
    if (!endpoint.createdBy) return;
    const [owner] = await tx.select({ email: user.email }).from(user).where(eq(user.id, endpoint.createdBy));
    if (!owner) return;
    await mails.queue(
      tx,
      "webhookEndpointPaused",
      {
        endpointId: endpoint.id,
        url: endpoint.url,
        description: endpoint.description,
        failingSince: endpoint.failingSince ?? at,
      },
      owner.email,
      jobKey("webhook-paused", endpoint.id, at.getTime()),
    );
  }

  /** Writes one attempt's result on its delivery, and what it means for the endpoint, in one transaction. */
  async function record(row: Claimed, result: AttemptResult): Promise<void> {
    const t = now();
    const attempts = row.attempts + 1;
    const outcome = outcomeOf(result.status);
    const delay = outcome === "retry" ? retryDelay(attempts, options.retrySchedule) : null;
    const state: DeliveryState =
      outcome === "succeeded" ? "succeeded" : outcome === "retry" && delay !== null ? "failing" : "failed";
    await db.transaction(async (tx) => {
      await tx
        .update(webhookDeliveries)
        .set({
          state,
          attempts,
          lastStatus: result.status,
          lastError: result.error ? result.error.slice(0, ERROR_MAX) : null,
          nextAttemptAt: state === "failing" ? new Date(t.getTime() + delay! * 1000) : null,
          lockedUntil: null,
          updatedAt: t,
          ...(state === "succeeded" ? { deliveredAt: t } : {}),
        })
        .where(eq(webhookDeliveries.id, row.id));
      if (state === "succeeded") {
        await tx
          .update(webhookEndpoints)
          .set({ failingSince: null, updatedAt: t })
          .where(and(eq(webhookEndpoints.id, row.endpoint_id), sql`${webhookEndpoints.failingSince} is not null`));
        return;
      }
      if (outcome === "gone") {
        await tx
          .update(webhookEndpoints)
          .set({
            state: "disabled",
            stateReason: `Disabled on ${t.toISOString().slice(0, 10)}: the receiver answered 410 Gone.`,
            failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${t.toISOString()}::timestamptz)`,
            updatedAt: t,
          })
          .where(eq(webhookEndpoints.id, row.endpoint_id));
        return;
      }
      if (state !== "failed") return;
      const [endpoint] = await tx
        .update(webhookEndpoints)
        .set({
          failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${t.toISOString()}::timestamptz)`,
          updatedAt: t,
        })
        .where(eq(webhookEndpoints.id, row.endpoint_id))
        .returning();
      if (endpoint?.state === "active" && pausesNow(endpoint.failingSince, t, deps.pauseAfterDays)) {
        const days = deps.pauseAfterDays ?? 5;
        await tx
          .update(webhookEndpoints)
          .set({
            state: "paused",
            stateReason: `Paused on ${t.toISOString().slice(0, 10)}: every delivery failed for ${days} days.`,
          })
          .where(eq(webhookEndpoints.id, endpoint.id));
        await mailOwnerTx(tx, endpoint, t);
        logger.warn({ endpointId: endpoint.id }, "webhook endpoint paused after failing for days");
      }
    });
    if (state === "failing" && delay! > 0) await wake(`retry:${row.id}:${attempts}`, undefined, Math.ceil(delay!));
  }

  /** Sends one claimed delivery and records its answer. */
  async function send(row: Claimed): Promise<void> {
    const result = await attempt(
      { url: row.url, secret: row.secret, id: row.event_id, body: JSON.stringify(row.payload), at: now() },
      options,
    ).catch((error: unknown) => ({ status: null, error: String((error as Error)?.message ?? error) }));
    await record(row, result);
  }

  /**
   * Sends what is due until nothing is (or the budget is spent): batches of BATCH, PARALLEL at once. Returns how many
   * attempts it made.
   */
  async function drain(): Promise<number> {
    const started = Date.now();
    let sent = 0;
    while (Date.now() - started < DRAIN_BUDGET_MS) {
      const batch = await claim();
      if (!batch.length) break;
      let next = 0;
      await Promise.all(
        Array.from({ length: Math.min(PARALLEL, batch.length) }, async () => {
          while (next < batch.length) await send(batch[next++]!);
        }),
      );
      sent += batch.length;
    }
    return sent;
  }

  jobs.worker(
    WEBHOOK_QUEUE,
    async () => {
      await drain();
    },
    { title: "Webhooks: send the deliveries that are due" },
  );

  /**
   * The membership periods that ended within the lookback with no later period (the customer's latest end has
   * passed, and no PayPal subscription is about to renew it), each announced once: a row in webhook_membership_ends
   * and a delivery per subscribed endpoint, in one statement.
   */
  async function scanEnded(): Promise<{ ended: number }> {
    const t = now();
    const from = new Date(t.getTime() - ENDED_LOOKBACK_DAYS * 86_400_000);
    return db.transaction(async (tx) => {
      const { rows } = await tx.execute<{ ended: number; deliveries: number }>(sql`
        with ended as (
          insert into webhook_membership_ends (user_id, ends_at, noted_at)
          select distinct on (o.user_id) o.user_id, o.membership_valid, ${t.toISOString()}::timestamptz
          from orders o
          where o.payment_status = 'Paid' and o.order_status = 'Delivered'
            and o.membership_valid > ${from.toISOString()}::timestamptz
            and o.membership_valid <= ${t.toISOString()}::timestamptz
            and not exists (select 1 from orders later where later.user_id = o.user_id
              and later.payment_status = 'Paid' and later.membership_valid > o.membership_valid)
            and not exists (select 1 from subscriptions s join orders first on first.id = s.order_id
              where s.user_id = o.user_id and s.status = 'active' and first.payment_status = 'Paid')
          order by o.user_id, o.membership_valid desc
          on conflict do nothing
          returning user_id, ends_at
        ), events as (
          select e.user_id, e.ends_at, 'msg_' || md5(e.user_id || ':' || e.ends_at::text) as event_id,
            jsonb_build_object(
              'type', 'membership.ended', 'version', ${PAYLOAD_VERSION}::int,
              'timestamp', to_char(e.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'),
              'data', jsonb_build_object(
                'customer', jsonb_build_object('id', u.id, 'email', u.email, 'name', u.name),
                'membership', jsonb_build_object(
                  'endedAt', to_char(e.ends_at at time zone 'UTC', 'YYYY-MM-DD"T"HH24:MI:SS.MS"Z"'))))
              as payload
          from ended e join "user" u on u.id = e.user_id
        ), inserted as (
          insert into webhook_deliveries (endpoint_id, event_id, event_type, payload, next_attempt_at, created_at,
            updated_at)
          select w.id, ev.event_id, 'membership.ended', ev.payload, ${t.toISOString()}::timestamptz,
            ${t.toISOString()}::timestamptz, ${t.toISOString()}::timestamptz
          from events ev cross join webhook_endpoints w
          where w.state = 'active' and w.events && array['membership.ended', ${ALL_EVENTS}]::text[]
          on conflict do nothing
          returning 1
        )
        select (select count(*)::int from ended) as ended, (select count(*)::int from inserted) as deliveries`);
      const { ended, deliveries } = rows[0] ?? { ended: 0, deliveries: 0 };
      if (deliveries) await wake(`ended:${t.getTime()}`, tx);
      return { ended };
    });
  }

  // Once a minute: what is due and no job woke for (a retry whose job was lost, a lease run out after a crash).
  jobs.every(
    "webhooks-sweep",
    "* * * * *",
    async () => {
      await drain();
    },
    { firstRunAfterSeconds: 20, title: "Webhooks: send what is due and was not sent" },
  );
  // Every 10 minutes: membership periods that ended (membership.ended), each once.
  jobs.every(
    "webhooks-membership-ended",
    "*/10 * * * *",
    async () => {
      await scanEnded();
    },
    { title: "Webhooks: announce the memberships that ended" },
  );

  /**
   * Reports an event in the caller's transaction: a delivery for every active endpoint subscribed to it (one
   * statement, whatever their number), sent once that transaction commits; nothing if it rolls back. Returns how many
   * deliveries it wrote.
   */
  async function emitTx(tx: Tx, type: WebhookEvent, data: object): Promise<number> {
    const t = now();
    const eventId = newEventId();
    const payload = JSON.stringify(payloadOf(type, t, data));
    const result = await tx.execute(sql`
      insert into ${webhookDeliveries} (endpoint_id, event_id, event_type, payload, next_attempt_at, created_at,
        updated_at)
      select id, ${eventId}, ${type}, ${payload}::jsonb, ${t.toISOString()}::timestamptz,
        ${t.toISOString()}::timestamptz, ${t.toISOString()}::timestamptz
      from ${webhookEndpoints}
      where state = 'active' and events && array[${type}, ${ALL_EVENTS}]::text[]`);
    const n = result.rowCount ?? 0;
    if (n) await wake(eventId, tx);
    return n;
  }

  /**
   * Many events of one type in the caller's transaction (a member import's new customers and subscribers): as emitTx,
   * in one statement for them all (events × subscribed endpoints) and one wake-up. Returns how many deliveries.
   */
  async function emitManyTx(tx: Tx, type: WebhookEvent, items: readonly object[]): Promise<number> {
    if (!items.length) return 0;
    const t = now().toISOString();
    const eventIds = items.map(() => newEventId());
    const payloads = items.map((data) => JSON.stringify(payloadOf(type, new Date(t), data)));
    const result = await tx.execute(sql`
      insert into ${webhookDeliveries} (endpoint_id, event_id, event_type, payload, next_attempt_at, created_at,
        updated_at)
      select e.id, x.event_id, ${type}, x.payload::jsonb, ${t}::timestamptz, ${t}::timestamptz, ${t}::timestamptz
      from ${webhookEndpoints} e
      cross join unnest(${sql.param(eventIds)}::text[], ${sql.param(payloads)}::text[]) as x(event_id, payload)
      where e.state = 'active' and e.events && array[${type}, ${ALL_EVENTS}]::text[]`);
    const n = result.rowCount ?? 0;
    if (n) await wake(eventIds[0]!, tx);
    return n;
  }

  return {
    /** WEBHOOKS_ALLOW_PRIVATE: http:// and private addresses allowed (local testing); the forms say which rule holds. */
    localTesting: options.allowPrivate,
    emitTx,
    emitManyTx,
    /**
     * The membership events of a change to a customer's orders, from the end of their running membership before and
     * after it (in the change's transaction): none before and one after is `membership.started`; a later end is
     * `membership.extended`; a running one taken away (a refund) is `membership.ended`, noted so the job does not
     * announce it again.
     */
    async membershipChangedTx(
      tx: Tx,
      customer: { id: string; email: string; name: string },
      before: Date | null,
      after: Date | null,
      order: { id: string; number: string },
    ): Promise<void> {
      const data = (extra: object) => ({
        customer,
        order: { id: order.id, number: order.number },
        membership: extra,
      });
      if (!before && after)
        await emitTx(tx, "membership.started", data({ endsAt: after.toISOString(), previousEndsAt: null }));
      else if (before && after && after > before)
        await emitTx(
          tx,
          "membership.extended",
          data({ endsAt: after.toISOString(), previousEndsAt: before.toISOString() }),
        );
      else if (before && !after) {
        await tx.execute(sql`insert into webhook_membership_ends (user_id, ends_at, noted_at)
          values (${customer.id}, ${before.toISOString()}::timestamptz, ${now().toISOString()}::timestamptz)
          on conflict do nothing`);
        await emitTx(tx, "membership.ended", data({ endedAt: now().toISOString(), reason: "taken back" }));
      }
    },

    /** Every endpoint with its state and counts (the list screen and GET /webhooks). */
    list: () => views(),

    /** One endpoint, with its signing secret (an Admin's screen, so that the receiver can verify). */
    async get(id: string): Promise<EndpointView & { secret: string }> {
      const row = await endpointRow(id);
      const [view] = await views(sql`e.id = ${row.id}`);
      return { ...view!, secret: row.secret };
    },

    /** Endpoints whose deliveries failed for good since the last one delivered (the line on Today). */
    failing: () => views(sql`e.failing_since is not null`),

    /** Adds an endpoint (active, with a fresh secret), checked as any address is. */
    async add(input: unknown, actor: Actor): Promise<{ id: string; secret: string }> {
      const data = await parseEndpoint(input);
      return audited(db, actor, "webhook_endpoint", async (tx, audit) => {
        const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints);
        if (n >= ENDPOINTS_MAX) throw new AppError(409, `A site may have at most ${ENDPOINTS_MAX} webhook endpoints.`);
        const t = now();
        const [row] = await tx
          .insert(webhookEndpoints)
          .values({ ...data, secret: newSecret(), createdBy: actor.id, createdAt: t, updatedAt: t })
          .returning();
        await audit.created(row!.id, audited_(row!));
        return { id: row!.id, secret: row!.secret };
      });
    },

    /** Changes an endpoint's address, description or events. */
    async update(id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
      const before = await endpointRow(id);
      const data = await parseEndpoint(input);
      return audited(db, actor, "webhook_endpoint", async (tx, audit) => {
        const [after] = await tx
          .update(webhookEndpoints)
          .set({ ...data, updatedAt: now() })
          .where(eq(webhookEndpoints.id, before.id))
          .returning();
        if (!after) throw notFound("Webhook endpoint not found");
        const modified = JSON.stringify(audited_(before)) !== JSON.stringify(audited_(after));
        if (modified) await audit.updated(before.id, audited_(before), audited_(after));
        return { modified };
      });
    },

    /** Pauses (nothing is sent; deliveries wait) or resumes an endpoint (paused or disabled: active again). */
    async setState(id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
      const state = (input as { state?: unknown } | null)?.state;
      if (state !== "active" && state !== "paused")
        throw badRequest([{ field: "state", message: "state must be active or paused" }]);
      const before = await endpointRow(id);
      if (before.state === state) return { modified: false };
      return audited(db, actor, "webhook_endpoint", async (tx, audit) => {
        const t = now();
        const [after] = await tx
          .update(webhookEndpoints)
          .set({
            state,
            stateReason: state === "paused" ? `Paused on ${t.toISOString().slice(0, 10)} by ${actor.email}.` : "",
            // Resumed: a fresh start (what waits is sent now; the failing clock starts again).
            ...(state === "active" ? { failingSince: null } : {}),
            updatedAt: t,
          })
          .where(eq(webhookEndpoints.id, before.id))
          .returning();
        await audit.updated(before.id, audited_(before), audited_(after!));
        if (state === "active") {
          await tx
            .update(webhookDeliveries)
            .set({ nextAttemptAt: t })
            .where(
              and(
                eq(webhookDeliveries.endpointId, before.id),
                sql`${webhookDeliveries.state} in ('pending', 'failing')`,
              ),
            );
          await wake(`resume:${before.id}:${t.getTime()}`, tx);
        }
        return { modified: true };
      });
    },

    /** A new signing secret (the old one stops working at once: the receiver must take the new one). */
    async rotateSecret(id: string, actor: Actor): Promise<{ secret: string }> {
      const before = await endpointRow(id);
      return audited(db, actor, "webhook_endpoint", async (tx, audit) => {
        const secret = newSecret();
        await tx.update(webhookEndpoints).set({ secret, updatedAt: now() }).where(eq(webhookEndpoints.id, before.id));
        await audit.updated(before.id, { secret: "(previous)" }, { secret: "(rotated)" });
        return { secret };
      });
    },

    /** Deletes an endpoint and its deliveries. */
    async remove(id: string, actor: Actor): Promise<{ deleted: boolean }> {
      const before = await endpointRow(id);
      return audited(db, actor, "webhook_endpoint", async (tx, audit) => {
        await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, before.id));
        await audit.deleted(before.id, audited_(before));
        return { deleted: true };
      });
    },

    /** A `webhook.test` event to this endpoint alone (an active one: a paused one would keep it waiting). */
    async sendTest(id: string, actor: Actor): Promise<{ deliveryId: string }> {
      const endpoint = await endpointRow(id);
      if (endpoint.state !== "active")
        throw new AppError(409, "This endpoint is not active: resume it before sending a test event.");
      return db.transaction(async (tx) => {
        const t = now();
        const eventId = newEventId();
        const [row] = await tx
          .insert(webhookDeliveries)
          .values({
            endpointId: endpoint.id,
            eventId,
            eventType: TEST_EVENT,
            payload: payloadOf(TEST_EVENT, t, { message: "A test event sent from the back office.", by: actor.email }),
            nextAttemptAt: t,
            createdAt: t,
            updatedAt: t,
          })
          .returning({ id: webhookDeliveries.id });
        await wake(eventId, tx);
        return { deliveryId: row!.id };
      });
    },

    /** One page of an endpoint's deliveries, newest first, paged in SQL; `state` narrows it. */
    async deliveries(
      id: string,
      query: { page?: unknown; perPage: number; state?: unknown },
    ): Promise<{ deliveries: DeliveryView[]; page: PageInfo }> {
      const endpoint = await endpointRow(id);
      const state =
        typeof query.state === "string" && (DELIVERY_STATES as readonly string[]).includes(query.state)
          ? (query.state as DeliveryState)
          : undefined;
      if (query.state !== undefined && query.state !== "" && !state)
        throw badRequest([{ field: "state", message: `state must be ${DELIVERY_STATES.join(", ")}` }]);
      const { rows, page } = await pageOf(db, webhookDeliveries, {
        where: and(
          eq(webhookDeliveries.endpointId, endpoint.id),
          state ? eq(webhookDeliveries.state, state) : undefined,
        ),
        orderBy: [desc(webhookDeliveries.createdAt), desc(webhookDeliveries.id)],
        page: query.page,
        perPage: query.perPage,
        countLimit: 10_000,
      });
      return {
        page,
        deliveries: rows.map((r) => ({
          id: r.id,
          eventId: r.eventId,
          eventType: r.eventType,
          state: r.state,
          attempts: r.attempts,
          lastStatus: r.lastStatus,
          lastError: r.lastError,
          nextAttemptAt: iso(r.nextAttemptAt),
          createdAt: iso(r.createdAt)!,
          deliveredAt: iso(r.deliveredAt),
          payload: r.payload,
        })),
      };
    },

    /**
     * "Send again": the delivery is due now (same message id, so a receiver that kept it knows it), one more attempt
     * on top of those made.
     */
    async resend(endpointId: string, deliveryId: string, actor: Actor): Promise<{ modified: boolean }> {
      const endpoint = await endpointRow(endpointId);
      if (!isId(deliveryId)) throw notFound("Delivery not found");
      return audited(db, actor, "webhook_endpoint", async (tx, audit) => {
        const t = now();
        const [row] = await tx
          .update(webhookDeliveries)
          .set({
            state: "pending",
            nextAttemptAt: t,
            lockedUntil: null,
            updatedAt: t,
          })
          .where(
            and(
              eq(webhookDeliveries.id, deliveryId),
              eq(webhookDeliveries.endpointId, endpoint.id),
              // Not while a worker is sending it (its lease): that would send it twice at once.
              sql`(${webhookDeliveries.lockedUntil} is null or ${webhookDeliveries.lockedUntil} < ${t.toISOString()}::timestamptz)`,
            ),
          )
          .returning({ id: webhookDeliveries.id, eventId: webhookDeliveries.eventId });
        if (!row) {
          const [found] = await tx
            .select({ id: webhookDeliveries.id })
            .from(webhookDeliveries)
            .where(and(eq(webhookDeliveries.id, deliveryId), eq(webhookDeliveries.endpointId, endpoint.id)));
          if (found) throw new AppError(409, "This delivery is being sent right now: look again in a moment.");
          throw notFound("Delivery not found");
        }
        await audit.updated(endpoint.id, { resent: null }, { resent: row.eventId });
        await wake(`resend:${row.id}:${t.getTime()}`, tx);
        return { modified: true };
      });
    },

    drain,
    scanEnded,
  };
}

export type WebhooksService = ReturnType<typeof createWebhooksService>;
/** What the services that report events need of this one. */
export type WebhookEmitter = Pick<WebhooksService, "emitTx" | "emitManyTx" | "membershipChangedTx">;

/**
 * A person leaves the outbox (decisions 045, 086): every delivery whose payload holds one of their addresses is
 * deleted, sent or not, in the erasure's transaction. A scan of the payloads: erasures are rare. The event of the
 * erasure itself (`customer.erased`, their account's id only) is emitted after this.
 */
export async function forgetPerson(tx: Tx, person: Person): Promise<number> {
  if (!person.emails.length) return 0;
  const result = await tx.execute(sql`
    delete from ${webhookDeliveries}
    where exists (select 1 from unnest(${sql.param(person.emails)}::text[]) as e(email)
                  where position(e.email in lower(payload::text)) > 0)`);
  return result.rowCount ?? 0;
}
