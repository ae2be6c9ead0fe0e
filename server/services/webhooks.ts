import { sql } from "drizzle-orm";
import type { Person } from "#domain/privacy.ts";
import { webhookDeliveries } from "#server/db/schema.ts";
import { withDeps } from "#server/lib/with-deps.ts";
import type { Tx } from "./jobs";
import { emitManyTx, emitTx, membershipChangedTx } from "./webhooks/emit";
import { add, remove, resend, rotateSecret, sendTest, setState, update } from "./webhooks/endpoints";
import { WEBHOOK_QUEUE, type WebhooksDeps } from "./webhooks/model";
import { deliveries, failing, get, list } from "./webhooks/queries";
import { drain, scanEnded } from "./webhooks/worker";

export {
  WEBHOOK_QUEUE,
  newEventId,
  newSecret,
  type DeliveryView,
  type EndpointView,
  type WebhooksDeps,
} from "./webhooks/model";

/**
 * Outgoing webhooks (issue 37 part 2, docs/decisions/078): the only writer of webhook_endpoints, webhook_deliveries
 * and webhook_membership_ends. Services call `emitTx` inside the transaction of the change an event reports: one
 * `INSERT … SELECT` writes a delivery per subscribed endpoint (the outbox) and queues a job in the same transaction,
 * so a change rolled back sends nothing. The job's worker claims due deliveries (a lease, SKIP LOCKED), POSTs each
 * signed to the Standard Webhooks spec through the SSRF guard, and records the answer: delivered; retried on the
 * schedule (WEBHOOKS_RETRY_SCHEDULE); failed after the last attempt (the endpoint shown failing on Today, paused and
 * its owner mailed after failing for days); or, on 410 Gone, the endpoint disabled at once. The reads are in
 * webhooks/queries.ts, the endpoints' changes in webhooks/endpoints.ts, the outbox in webhooks/emit.ts and its
 * worker in webhooks/worker.ts, each a function over the same dependencies that this factory only wires (decision
 * 085).
 */
export function createWebhooksService(deps: WebhooksDeps) {
  const { jobs } = deps;
  jobs.worker(
    WEBHOOK_QUEUE,
    async () => {
      await drain(deps);
    },
    { title: "Webhooks: send the deliveries that are due" },
  );
  // Once a minute: what is due and no job woke for (a retry whose job was lost, a lease run out after a crash).
  jobs.every(
    "webhooks-sweep",
    "* * * * *",
    async () => {
      await drain(deps);
    },
    { firstRunAfterSeconds: 20, title: "Webhooks: send what is due and was not sent" },
  );
  // Every 10 minutes: membership periods that ended (membership.ended), each once.
  jobs.every(
    "webhooks-membership-ended",
    "*/10 * * * *",
    async () => {
      await scanEnded(deps);
    },
    { title: "Webhooks: announce the memberships that ended" },
  );

  return {
    /** WEBHOOKS_ALLOW_PRIVATE: http:// and private addresses allowed (local testing); the forms say which rule holds. */
    localTesting: deps.options.allowPrivate,
    emitTx: withDeps(deps, emitTx),
    emitManyTx: withDeps(deps, emitManyTx),
    membershipChangedTx: withDeps(deps, membershipChangedTx),
    list: withDeps(deps, list),
    get: withDeps(deps, get),
    failing: withDeps(deps, failing),
    add: withDeps(deps, add),
    update: withDeps(deps, update),
    setState: withDeps(deps, setState),
    rotateSecret: withDeps(deps, rotateSecret),
    remove: withDeps(deps, remove),
    sendTest: withDeps(deps, sendTest),
    deliveries: withDeps(deps, deliveries),
    resend: withDeps(deps, resend),
    drain: withDeps(deps, drain),
    scanEnded: withDeps(deps, scanEnded),
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
