import { sql } from "drizzle-orm";
import { ALL_EVENTS, type WebhookEvent } from "#domain/webhooks.ts";
import { webhookDeliveries, webhookEndpoints } from "#server/db/schema.ts";
import type { Tx } from "../jobs";
import { newEventId, payloadOf, wake, type WebhooksDeps } from "./model";

/**
 * Reports an event in the caller's transaction: a delivery for every active endpoint subscribed to it (one
 * statement, whatever their number), sent once that transaction commits; nothing if it rolls back. Returns how many
 * deliveries it wrote.
 */
export async function emitTx(deps: WebhooksDeps, tx: Tx, type: WebhookEvent, data: object): Promise<number> {
  const t = deps.now();
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
  if (n) await wake(deps, eventId, tx);
  return n;
}

/**
 * Many events of one type in the caller's transaction (a member import's new customers and subscribers): as emitTx,
 * in one statement for them all (events × subscribed endpoints) and one wake-up. Returns how many deliveries.
 */
export async function emitManyTx(
  deps: WebhooksDeps,
  tx: Tx,
  type: WebhookEvent,
  items: readonly object[],
): Promise<number> {
  if (!items.length) return 0;
  const t = deps.now().toISOString();
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
  if (n) await wake(deps, eventIds[0]!, tx);
  return n;
}

/**
 * The membership events of a change to a customer's orders, from the end of their running membership before and
 * after it (in the change's transaction): none before and one after is `membership.started`; a later end is
 * `membership.extended`; a running one taken away (a refund) is `membership.ended`, noted so the job does not
 * announce it again.
 */
export async function membershipChangedTx(
  deps: WebhooksDeps,
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
    await emitTx(deps, tx, "membership.started", data({ endsAt: after.toISOString(), previousEndsAt: null }));
  else if (before && after && after > before)
    await emitTx(
      deps,
      tx,
      "membership.extended",
      data({ endsAt: after.toISOString(), previousEndsAt: before.toISOString() }),
    );
  else if (before && !after) {
    await tx.execute(sql`insert into webhook_membership_ends (user_id, ends_at, noted_at)
      values (${customer.id}, ${before.toISOString()}::timestamptz, ${deps.now().toISOString()}::timestamptz)
      on conflict do nothing`);
    await emitTx(deps, tx, "membership.ended", data({ endedAt: deps.now().toISOString(), reason: "taken back" }));
  }
}
