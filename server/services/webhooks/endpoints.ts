import { and, eq, sql } from "drizzle-orm";
import { parseWith } from "#domain/validation.ts";
import { TEST_EVENT, endpointSchema, urlProblem } from "#domain/webhooks.ts";
import { webhookDeliveries, webhookEndpoints } from "#server/db/schema.ts";
import { AppError, badRequest, isId, notFound } from "#server/lib/errors.ts";
import { audited, type Actor } from "../activity";
import { checkEndpointHost } from "./addresses";
import {
  ENDPOINTS_MAX,
  audited_,
  endpointRow,
  newEventId,
  newSecret,
  payloadOf,
  wake,
  type WebhooksDeps,
} from "./model";

/** A parsed, checked endpoint form: its shape (zod), the address's scheme, and where its host resolves. */
async function parseEndpoint({ options }: WebhooksDeps, input: unknown) {
  const parsed = parseWith(endpointSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const problem = urlProblem(parsed.data.url, options.allowPrivate);
  if (problem) throw badRequest([{ field: "url", message: problem }]);
  await checkEndpointHost(new URL(parsed.data.url), options.allowPrivate);
  return parsed.data;
}

/** Adds an endpoint (active, with a fresh secret), checked as any address is. */
export async function add(deps: WebhooksDeps, input: unknown, actor: Actor): Promise<{ id: string; secret: string }> {
  const data = await parseEndpoint(deps, input);
  return audited(deps.db, actor, "webhook_endpoint", async (tx, audit) => {
    const [{ n } = { n: 0 }] = await tx.select({ n: sql<number>`count(*)::int` }).from(webhookEndpoints);
    if (n >= ENDPOINTS_MAX) throw new AppError(409, `A site may have at most ${ENDPOINTS_MAX} webhook endpoints.`);
    const t = deps.now();
    const [row] = await tx
      .insert(webhookEndpoints)
      .values({ ...data, secret: newSecret(), createdBy: actor.id, createdAt: t, updatedAt: t })
      .returning();
    await audit.created(row!.id, audited_(row!));
    return { id: row!.id, secret: row!.secret };
  });
}

/** Changes an endpoint's address, description or events. */
export async function update(
  deps: WebhooksDeps,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ modified: boolean }> {
  const before = await endpointRow(deps, id);
  const data = await parseEndpoint(deps, input);
  return audited(deps.db, actor, "webhook_endpoint", async (tx, audit) => {
    const [after] = await tx
      .update(webhookEndpoints)
      .set({ ...data, updatedAt: deps.now() })
      .where(eq(webhookEndpoints.id, before.id))
      .returning();
    if (!after) throw notFound("Webhook endpoint not found");
    const modified = JSON.stringify(audited_(before)) !== JSON.stringify(audited_(after));
    if (modified) await audit.updated(before.id, audited_(before), audited_(after));
    return { modified };
  });
}

/** Pauses (nothing is sent; deliveries wait) or resumes an endpoint (paused or disabled: active again). */
export async function setState(
  deps: WebhooksDeps,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ modified: boolean }> {
  const state = (input as { state?: unknown } | null)?.state;
  if (state !== "active" && state !== "paused")
    throw badRequest([{ field: "state", message: "state must be active or paused" }]);
  const before = await endpointRow(deps, id);
  if (before.state === state) return { modified: false };
  return audited(deps.db, actor, "webhook_endpoint", async (tx, audit) => {
    const t = deps.now();
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
          and(eq(webhookDeliveries.endpointId, before.id), sql`${webhookDeliveries.state} in ('pending', 'failing')`),
        );
      await wake(deps, `resume:${before.id}:${t.getTime()}`, tx);
    }
    return { modified: true };
  });
}

/** A new signing secret (the old one stops working at once: the receiver must take the new one). */
export async function rotateSecret(deps: WebhooksDeps, id: string, actor: Actor): Promise<{ secret: string }> {
  const before = await endpointRow(deps, id);
  return audited(deps.db, actor, "webhook_endpoint", async (tx, audit) => {
    const secret = newSecret();
    await tx.update(webhookEndpoints).set({ secret, updatedAt: deps.now() }).where(eq(webhookEndpoints.id, before.id));
    await audit.updated(before.id, { secret: "(previous)" }, { secret: "(rotated)" });
    return { secret };
  });
}

/** Deletes an endpoint and its deliveries. */
export async function remove(deps: WebhooksDeps, id: string, actor: Actor): Promise<{ deleted: boolean }> {
  const before = await endpointRow(deps, id);
  return audited(deps.db, actor, "webhook_endpoint", async (tx, audit) => {
    await tx.delete(webhookEndpoints).where(eq(webhookEndpoints.id, before.id));
    await audit.deleted(before.id, audited_(before));
    return { deleted: true };
  });
}

/** A `webhook.test` event to this endpoint alone (an active one: a paused one would keep it waiting). */
export async function sendTest(deps: WebhooksDeps, id: string, actor: Actor): Promise<{ deliveryId: string }> {
  const endpoint = await endpointRow(deps, id);
  if (endpoint.state !== "active")
    throw new AppError(409, "This endpoint is not active: resume it before sending a test event.");
  return deps.db.transaction(async (tx) => {
    const t = deps.now();
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
    await wake(deps, eventId, tx);
    return { deliveryId: row!.id };
  });
}

/**
 * "Send again": the delivery is due now (same message id, so a receiver that kept it knows it), one more attempt
 * on top of those made.
 */
export async function resend(
  deps: WebhooksDeps,
  endpointId: string,
  deliveryId: string,
  actor: Actor,
): Promise<{ modified: boolean }> {
  const endpoint = await endpointRow(deps, endpointId);
  if (!isId(deliveryId)) throw notFound("Delivery not found");
  return audited(deps.db, actor, "webhook_endpoint", async (tx, audit) => {
    const t = deps.now();
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
    await wake(deps, `resend:${row.id}:${t.getTime()}`, tx);
    return { modified: true };
  });
}
