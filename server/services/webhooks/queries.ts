import { and, desc, eq, sql } from "drizzle-orm";
import type { PageInfo } from "#domain/pagination.ts";
import { DELIVERY_STATES, type DeliveryState, type EndpointState } from "#domain/webhooks.ts";
import { user, webhookDeliveries, webhookEndpoints } from "#server/db/schema.ts";
import { badRequest } from "#server/lib/errors.ts";
import { pageOf } from "#server/lib/paging.ts";
import { ENDPOINTS_MAX, endpointRow, iso, type DeliveryView, type EndpointView, type WebhooksDeps } from "./model";

/** Endpoints with their owner and counts, newest first: one statement. */
export async function views({ db }: WebhooksDeps, where = sql`true`): Promise<EndpointView[]> {
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

/** Every endpoint with its state and counts (the list screen and GET /webhooks). */
export const list = (deps: WebhooksDeps) => views(deps);

/** One endpoint, with its signing secret (an Admin's screen, so that the receiver can verify). */
export async function get(deps: WebhooksDeps, id: string): Promise<EndpointView & { secret: string }> {
  const row = await endpointRow(deps, id);
  const [view] = await views(deps, sql`e.id = ${row.id}`);
  return { ...view!, secret: row.secret };
}

/** Endpoints whose deliveries failed for good since the last one delivered (the line on Today). */
export const failing = (deps: WebhooksDeps) => views(deps, sql`e.failing_since is not null`);

/** One page of an endpoint's deliveries, newest first, paged in SQL; `state` narrows it. */
export async function deliveries(
  deps: WebhooksDeps,
  id: string,
  query: { page?: unknown; perPage: number; state?: unknown },
): Promise<{ deliveries: DeliveryView[]; page: PageInfo }> {
  const endpoint = await endpointRow(deps, id);
  const state =
    typeof query.state === "string" && (DELIVERY_STATES as readonly string[]).includes(query.state)
      ? (query.state as DeliveryState)
      : undefined;
  if (query.state !== undefined && query.state !== "" && !state)
    throw badRequest([{ field: "state", message: `state must be ${DELIVERY_STATES.join(", ")}` }]);
  const { rows, page } = await pageOf(deps.db, webhookDeliveries, {
    where: and(eq(webhookDeliveries.endpointId, endpoint.id), state ? eq(webhookDeliveries.state, state) : undefined),
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
}
