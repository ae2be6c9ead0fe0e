import { and, eq, sql } from "drizzle-orm";
import {
  ALL_EVENTS,
  ERROR_MAX,
  PAYLOAD_VERSION,
  outcomeOf,
  pausesNow,
  retryDelay,
  type DeliveryState,
} from "#domain/webhooks.ts";
import { user, webhookDeliveries, webhookEndpoints } from "#server/db/schema.ts";
import { jobKey, type Tx } from "../jobs";
import {
  BATCH,
  DRAIN_BUDGET_MS,
  ENDED_LOOKBACK_DAYS,
  LEASE_SECONDS,
  PARALLEL,
  wake,
  type Claimed,
  type EndpointRow,
  type WebhooksDeps,
} from "./model";
import { attempt, type AttemptResult } from "./send";

/** Claims up to BATCH due deliveries of active endpoints (a lease, so two workers never send one row at once). */
async function claim({ db, now }: WebhooksDeps): Promise<Claimed[]> {
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
async function mailOwnerTx({ mails }: WebhooksDeps, tx: Tx, endpoint: EndpointRow, at: Date) {
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

/**
 * What a failed delivery means for its endpoint: failing since now (unless it already was), and paused (its owner
 * mailed) once it has failed for days.
 */
async function noteFailedTx(deps: WebhooksDeps, tx: Tx, endpointId: string, t: Date) {
  const [endpoint] = await tx
    .update(webhookEndpoints)
    .set({
      failingSince: sql`coalesce(${webhookEndpoints.failingSince}, ${t.toISOString()}::timestamptz)`,
      updatedAt: t,
    })
    .where(eq(webhookEndpoints.id, endpointId))
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
    await mailOwnerTx(deps, tx, endpoint, t);
    deps.logger.warn({ endpointId: endpoint.id }, "webhook endpoint paused after failing for days");
  }
}

/** Writes one attempt's result on its delivery, and what it means for the endpoint, in one transaction. */
async function record(deps: WebhooksDeps, row: Claimed, result: AttemptResult): Promise<void> {
  const t = deps.now();
  const attempts = row.attempts + 1;
  const outcome = outcomeOf(result.status);
  const delay = outcome === "retry" ? retryDelay(attempts, deps.options.retrySchedule) : null;
  const state: DeliveryState =
    outcome === "succeeded" ? "succeeded" : outcome === "retry" && delay !== null ? "failing" : "failed";
  await deps.db.transaction(async (tx) => {
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
    if (state === "failed") await noteFailedTx(deps, tx, row.endpoint_id, t);
  });
  if (state === "failing" && delay! > 0) await wake(deps, `retry:${row.id}:${attempts}`, undefined, Math.ceil(delay!));
}

/** Sends one claimed delivery and records its answer. */
async function send(deps: WebhooksDeps, row: Claimed): Promise<void> {
  const result = await attempt(
    { url: row.url, secret: row.secret, id: row.event_id, body: JSON.stringify(row.payload), at: deps.now() },
    deps.options,
  ).catch((error: unknown) => ({ status: null, error: String((error as Error)?.message ?? error) }));
  await record(deps, row, result);
}

/**
 * Sends what is due until nothing is (or the budget is spent): batches of BATCH, PARALLEL at once. Returns how many
 * attempts it made.
 */
export async function drain(deps: WebhooksDeps): Promise<number> {
  const started = Date.now();
  let sent = 0;
  while (Date.now() - started < DRAIN_BUDGET_MS) {
    const batch = await claim(deps);
    if (!batch.length) break;
    let next = 0;
    await Promise.all(
      Array.from({ length: Math.min(PARALLEL, batch.length) }, async () => {
        while (next < batch.length) await send(deps, batch[next++]!);
      }),
    );
    sent += batch.length;
  }
  return sent;
}

/**
 * The membership periods that ended within the lookback with no later period (the customer's latest end has
 * passed, and no PayPal subscription is about to renew it), each announced once: a row in webhook_membership_ends
 * and a delivery per subscribed endpoint, in one statement.
 */
export async function scanEnded(deps: WebhooksDeps): Promise<{ ended: number }> {
  const t = deps.now();
  const from = new Date(t.getTime() - ENDED_LOOKBACK_DAYS * 86_400_000);
  return deps.db.transaction(async (tx) => {
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
    if (deliveries) await wake(deps, `ended:${t.getTime()}`, tx);
    return { ended };
  });
}
