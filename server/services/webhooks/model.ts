import { randomBytes, randomUUID } from "node:crypto";
import { eq } from "drizzle-orm";
import { PAYLOAD_VERSION, type DeliveryState, type EndpointState } from "#domain/webhooks.ts";
import type { Db } from "#server/db/client.ts";
import { webhookEndpoints } from "#server/db/schema.ts";
import { isId, notFound } from "#server/lib/errors.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { JobsService, Tx } from "../jobs";
import type { MailsService } from "../mails";

/** The pg-boss queue that sends deliveries: one job per event (its id the job's key), each draining what is due. */
export const WEBHOOK_QUEUE = "webhook-deliveries";
/** Rows a worker claims at a time, and how many of them it sends at once. */
export const BATCH = 50;
export const PARALLEL = 10;
/** A worker's lease on the rows it claimed: longer than any attempt, so a dead worker's rows come back. */
export const LEASE_SECONDS = 120;
/** A drain stops after this long (the next job or the minute's sweep goes on), well within a job's time limit. */
export const DRAIN_BUDGET_MS = 5 * 60_000;
/** Endpoints an install may have (a screen, not a platform). */
export const ENDPOINTS_MAX = 100;
/** The membership ends announced by the job: ends at most this long ago (a scan after downtime still sends them). */
export const ENDED_LOOKBACK_DAYS = 7;

/** What the webhooks service is made of (its factory's argument). */
export interface WebhooksDeps {
  db: Db;
  jobs: Pick<JobsService, "send" | "worker" | "every">;
  mails: Pick<MailsService, "queue">;
  logger: Logger;
  now: () => Date;
  options: { allowPrivate: boolean; retrySchedule: readonly number[]; timeoutMs: number };
  /** Days an endpoint fails before it is paused (5). */
  pauseAfterDays?: number;
}

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

export type EndpointRow = typeof webhookEndpoints.$inferSelect;
export type Claimed = {
  id: string;
  endpoint_id: string;
  event_id: string;
  payload: Record<string, unknown>;
  attempts: number;
  url: string;
  secret: string;
};

export const iso = (d: Date | string | null) => (d ? new Date(d).toISOString() : null);

/** A fresh Standard Webhooks secret: `whsec_` and 32 random bytes in base64. */
export const newSecret = () => `whsec_${randomBytes(32).toString("base64")}`;
/** A message id (Standard Webhooks' `webhook-id`): one per event, the same on every attempt and every endpoint. */
export const newEventId = () => `msg_${randomUUID().replaceAll("-", "")}`;

/** The fields of an endpoint its activity entries keep (never its secret). */
export const audited_ = (e: Pick<EndpointRow, "url" | "description" | "events" | "state">) => ({
  url: e.url,
  description: e.description,
  events: e.events,
  state: e.state,
});

/** Wakes a worker: in `tx` when given (it runs only if that commits), `afterSeconds` later when given. */
export const wake = ({ jobs }: WebhooksDeps, key: string, tx?: Tx, afterSeconds?: number) =>
  jobs.send(WEBHOOK_QUEUE, {}, { singletonKey: key, tx, startAfterSeconds: afterSeconds });

/** The payload every receiver reads: versioned, the event's type, when it happened, and its data. */
export const payloadOf = (type: string, at: Date, data: object) => ({
  type,
  version: PAYLOAD_VERSION,
  timestamp: at.toISOString(),
  data,
});

export async function endpointRow({ db }: WebhooksDeps, id: string): Promise<EndpointRow> {
  if (!isId(id)) throw notFound("Webhook endpoint not found");
  const [row] = await db.select().from(webhookEndpoints).where(eq(webhookEndpoints.id, id));
  if (!row) throw notFound("Webhook endpoint not found");
  return row;
}
