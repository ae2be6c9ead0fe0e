import { createVerify } from "node:crypto";
import { and, asc, eq, sql } from "drizzle-orm";
import type { z } from "zod";
import { simulatorRestObjects, simulatorWebhookTransmissions } from "#server/db/schema.ts";
import type { verifyBody, webhookBody } from "./bodies";
import { put, type Sim } from "./context";
import { change } from "./delivery";
import { paypalError } from "./errors";
import { certUrl, signedText, signingKey } from "./events";
import { AUTH_ALGO, CERT_ID, paypalId, type Answer } from "./model";

// ── The webhooks API ─────────────────────────────────────────────────────────────────────────────────────────────
export async function listWebhooks(sim: Sim): Promise<Answer> {
  const rows = await sim.deps.db
    .select()
    .from(simulatorRestObjects)
    .where(eq(simulatorRestObjects.kind, "webhook"))
    .orderBy(asc(simulatorRestObjects.createdAt));
  return { status: 200, body: { webhooks: rows.map((r) => r.data) } };
}

export async function createWebhook(sim: Sim, input: z.infer<typeof webhookBody>): Promise<Answer> {
  return change(sim, async (tx) => {
    await tx.execute(sql`select pg_advisory_xact_lock(hashtext('paypal-simulator-webhooks'))`);
    const same = await tx
      .select({ id: simulatorRestObjects.id })
      .from(simulatorRestObjects)
      .where(and(eq(simulatorRestObjects.kind, "webhook"), sql`${simulatorRestObjects.data}->>'url' = ${input.url}`));
    if (same.length) return paypalError(400, "WEBHOOK_URL_ALREADY_EXISTS", "Webhook URL already exists.");
    const id = paypalId("", 17);
    const hook = {
      id,
      url: input.url,
      event_types: input.event_types.map((t) => ({
        name: t.name,
        description: t.name === "*" ? "ALL" : t.name,
        status: "ENABLED",
      })),
      links: [{ href: `${sim.base()}/v1/notifications/webhooks/${id}`, rel: "self", method: "GET" }],
    };
    await put(tx, "webhook", id, hook);
    return { status: 201, body: hook };
  });
}

/** SUCCESS only for a transmission this simulator made to that webhook id, with its time, signature and event. */
export async function verify(sim: Sim, input: z.infer<typeof verifyBody>): Promise<Answer> {
  const failure = { status: 200, body: { verification_status: "FAILURE" } };
  const [sent] = await sim.deps.db
    .select()
    .from(simulatorWebhookTransmissions)
    .where(eq(simulatorWebhookTransmissions.id, input.transmission_id));
  if (!sent || sent.webhookId !== input.webhook_id || sent.transmissionTime !== input.transmission_time) return failure;
  if (input.auth_algo !== AUTH_ALGO || input.cert_url !== certUrl(sim)) return failure;
  const { publicKey } = await signingKey(sim);
  const text = signedText(
    input.transmission_id,
    input.transmission_time,
    input.webhook_id,
    JSON.stringify(input.webhook_event),
  );
  let good = false;
  try {
    good = createVerify("sha256").update(text).verify(publicKey, input.transmission_sig, "base64");
  } catch {
    good = false;
  }
  return good ? { status: 200, body: { verification_status: "SUCCESS" } } : failure;
}

/** The public key webhooks are signed with (what PAYPAL-CERT-URL points at). */
export async function certificate(sim: Sim, id: string): Promise<string | null> {
  return id === CERT_ID ? (await signingKey(sim)).publicKey : null;
}
