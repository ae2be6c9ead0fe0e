import { createSign, generateKeyPairSync, randomUUID } from "node:crypto";
import { crc32 } from "node:zlib";
import { eq } from "drizzle-orm";
import { simulatorRestObjects, simulatorWebhookTransmissions } from "#server/db/schema.ts";
import { put, shown, type Sim } from "./context";
import { CERT_ID, paypalId, type Json, type Q } from "./model";

// ── Signing ──────────────────────────────────────────────────────────────────────────────────────────────────────
export async function signingKey(sim: Sim) {
  if (sim.state.key) return sim.state.key;
  const { db } = sim.deps;
  const pair = generateKeyPairSync("rsa", {
    modulusLength: 2048,
    publicKeyEncoding: { type: "spki", format: "pem" },
    privateKeyEncoding: { type: "pkcs8", format: "pem" },
  });
  await db
    .insert(simulatorRestObjects)
    .values({ id: CERT_ID, kind: "key", data: { privateKey: pair.privateKey, publicKey: pair.publicKey } })
    .onConflictDoNothing();
  const [row] = await db.select().from(simulatorRestObjects).where(eq(simulatorRestObjects.id, CERT_ID));
  sim.state.key = row!.data as { privateKey: string; publicKey: string };
  return sim.state.key;
}
export const signedText = (transmissionId: string, time: string, webhookId: string, body: string) =>
  `${transmissionId}|${time}|${webhookId}|${crc32(Buffer.from(body, "utf8")) >>> 0}`;
export const certUrl = (sim: Sim) => `${sim.base()}/v1/notifications/certs/${CERT_ID}`;

// ── Events ───────────────────────────────────────────────────────────────────────────────────────────────────────
/** A PayPal event for every webhook that listens to its type: stored, signed, sent after the commit. */
export async function emit(
  sim: Sim,
  q: Q,
  eventType: string,
  resourceType: string,
  resource: Json,
  summary: string,
): Promise<string[]> {
  const event = {
    id: paypalId("WH-", 17) + "-" + paypalId("", 17),
    event_version: "1.0",
    create_time: sim.iso(),
    resource_type: resourceType,
    resource_version: resourceType === "sale" ? "1.0" : "2.0",
    event_type: eventType,
    summary,
    resource: shown(resource),
    links: [] as { href: string; rel: string; method: string }[],
  };
  event.links = [
    { href: `${sim.base()}/v1/notifications/webhooks-events/${event.id}`, rel: "self", method: "GET" },
    { href: `${sim.base()}/v1/notifications/webhooks-events/${event.id}/resend`, rel: "resend", method: "POST" },
  ];
  await put(q, "event", event.id, event);
  return transmit(sim, q, event);
}

/** A transmission of the event, signed, to every webhook that listens to its type (stored; sent after the commit). */
export async function transmit(sim: Sim, q: Q, event: Json & { id: string; event_type: string }): Promise<string[]> {
  const hooks = await q.select().from(simulatorRestObjects).where(eq(simulatorRestObjects.kind, "webhook"));
  const body = JSON.stringify(event);
  const { privateKey } = await signingKey(sim);
  const rows = hooks
    .filter((hook) => {
      const types = (hook.data.event_types as { name: string }[]).map((t) => t.name);
      return types.includes("*") || types.includes(event.event_type);
    })
    .map((hook) => {
      const id = randomUUID();
      const time = sim.iso();
      const signature = createSign("sha256")
        .update(signedText(id, time, hook.id, body))
        .sign(privateKey, "base64");
      return { id, webhookId: hook.id, eventId: event.id, body, transmissionTime: time, signature };
    });
  if (rows.length) await q.insert(simulatorWebhookTransmissions).values(rows);
  const ids = rows.map((r) => r.id);
  return ids;
}
