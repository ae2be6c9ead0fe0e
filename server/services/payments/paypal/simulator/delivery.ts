import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { simulatorRestObjects, simulatorRestRequests, simulatorWebhookTransmissions } from "#server/db/schema.ts";
import { get, shown, type Sim } from "./context";
import { certUrl, transmit } from "./events";
import { AUTH_ALGO, type Answer, type Json, type Tx } from "./model";

/** Sends transmissions to their webhook's address (only this site's own: the simulator reaches nothing else). */
async function deliver(sim: Sim, ids: string[]) {
  if (!ids.length || sim.state.holding) return;
  const { db, logger } = sim.deps;
  const rows = await db
    .select({ t: simulatorWebhookTransmissions, url: sql<string>`${simulatorRestObjects.data}->>'url'` })
    .from(simulatorWebhookTransmissions)
    .innerJoin(simulatorRestObjects, eq(simulatorRestObjects.id, simulatorWebhookTransmissions.webhookId))
    .where(and(inArray(simulatorWebhookTransmissions.id, ids), isNull(simulatorWebhookTransmissions.sentAt)))
    .orderBy(asc(simulatorWebhookTransmissions.seq));
  for (const { t, url } of rows) {
    let status = 0;
    const target = new URL(url);
    if (target.origin !== sim.publicOrigin) {
      logger.warn({ url }, "the PayPal simulator sends webhooks only to this site");
    } else {
      try {
        status = await post(sim, target, t);
      } catch (error) {
        logger.warn({ error, url }, "the simulated webhook was not delivered");
      }
    }
    await db
      .update(simulatorWebhookTransmissions)
      .set({ answeredStatus: status, sentAt: sim.deps.now() })
      .where(eq(simulatorWebhookTransmissions.id, t.id));
  }
}

/** One transmission posted to this server with PayPal's headers; answers our endpoint's status. */
async function post(sim: Sim, target: URL, t: typeof simulatorWebhookTransmissions.$inferSelect) {
  const res = await fetch(sim.deps.selfUrl() + target.pathname + target.search, {
    method: "POST",
    headers: {
      "content-type": "application/json",
      "user-agent": "PayPal/AUHR-214.0-58372049",
      "paypal-transmission-id": t.id,
      "paypal-transmission-time": t.transmissionTime,
      "paypal-transmission-sig": t.signature,
      "paypal-cert-url": certUrl(sim),
      "paypal-auth-algo": AUTH_ALGO,
    },
    body: t.body,
    signal: AbortSignal.timeout(10_000),
  });
  const status = res.status;
  await res.arrayBuffer().catch(() => undefined);
  return status;
}

/**
 * Sends transmissions after the answer, in the order they were made, as PayPal does: a webhook may arrive before or
 * after the API's answer to the call that caused it.
 */
export function deliverLater(sim: Sim, ids: string[]) {
  if (!ids.length) return;
  sim.state.deliveries = sim.state.deliveries
    .then(() => deliver(sim, ids))
    .catch((error: unknown) => sim.deps.logger.error({ error }, "the PayPal simulator's webhooks failed"));
}

/** Runs a change in one transaction, then sends its webhooks. */
export async function change(sim: Sim, run: (tx: Tx) => Promise<Answer>): Promise<Answer> {
  const answer = await sim.deps.db.transaction(run);
  deliverLater(sim, answer.transmissions ?? []);
  return answer;
}

/**
 * A call with PayPal-Request-Id: the first answer is kept and every later call with the same id gets it back without
 * running again (PayPal's idempotency). Without the header each call runs.
 */
export async function idempotent(
  sim: Sim,
  scope: string,
  requestId: string | undefined,
  run: (tx: Tx) => Promise<Answer>,
) {
  if (!requestId) return change(sim, run);
  const k = `${scope}|${requestId}`;
  let replay = false;
  const answer = await sim.deps.db.transaction(async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext(${k}))`);
    const [kept] = await tx.select().from(simulatorRestRequests).where(eq(simulatorRestRequests.key, k));
    if (kept) {
      replay = true;
      return { status: kept.status, body: kept.body } as Answer;
    }
    const fresh = await run(tx);
    if (fresh.status < 500)
      await tx.insert(simulatorRestRequests).values({ key: k, status: fresh.status, body: fresh.body });
    return fresh;
  });
  if (!replay) deliverLater(sim, answer.transmissions ?? []);
  return answer;
}

/** PayPal sends an event again (a new transmission of the same event id): the same notice twice. */
export async function resendEvent(sim: Sim, eventId: string) {
  const ids = await sim.deps.db.transaction(async (tx) => {
    const event = await get(tx, "event", eventId);
    if (!event) throw new Error(`no simulated event ${eventId}`);
    return transmit(sim, tx, shown(event) as Json & { id: string; event_type: string });
  });
  deliverLater(sim, ids);
  return ids;
}

/** PayPal sends the newest event that meets `where` again (a new transmission of it); null when there is none. */
export async function resendLastEvent(sim: Sim, ...where: SQL[]): Promise<string[] | null> {
  const [last] = await sim.deps.db
    .select({ id: simulatorRestObjects.id })
    .from(simulatorRestObjects)
    .where(and(eq(simulatorRestObjects.kind, "event"), ...where))
    .orderBy(desc(simulatorRestObjects.createdAt))
    .limit(1);
  return last ? resendEvent(sim, last.id) : null;
}

/** Webhooks are kept back (sent late) until `sendHeldWebhooks`. */
export function holdWebhooks(sim: Sim, on: boolean) {
  sim.state.holding = on;
}

/** Stops holding and sends what was held, oldest first; answers how many. */
export async function sendHeldWebhooks(sim: Sim) {
  sim.state.holding = false;
  await sim.state.deliveries;
  const held = await sim.deps.db
    .select({ id: simulatorWebhookTransmissions.id })
    .from(simulatorWebhookTransmissions)
    .where(isNull(simulatorWebhookTransmissions.sentAt))
    .orderBy(asc(simulatorWebhookTransmissions.seq));
  deliverLater(
    sim,
    held.map((h) => h.id),
  );
  await sim.state.deliveries;
  return held.length;
}
