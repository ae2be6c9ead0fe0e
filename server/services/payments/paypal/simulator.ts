import { createSign, createVerify, generateKeyPairSync, randomBytes, randomUUID } from "node:crypto";
import { crc32 } from "node:zlib";
import { and, asc, desc, eq, inArray, isNull, sql, type SQL } from "drizzle-orm";
import { z } from "zod";
import type { Db } from "#server/db/client.ts";
import { simulatorRestObjects, simulatorRestRequests, simulatorWebhookTransmissions } from "#server/db/schema.ts";
import type { Logger } from "#server/lib/logger.ts";
import { billingCycle, money, type BillingCycle, type Money } from "./shapes";

/** Where the simulator's REST API answers on this server: PayPal's paths under it (`${selfUrl}${prefix}/v2/…`). */
export const SIMULATOR_REST_PREFIX = "/paypal-simulator/rest";
/** Where the buyer approves (the next step puts a page behind these): an order, a subscription. */
export const SIMULATOR_APPROVE_ORDER_PATH = "/paypal-simulator/checkoutnow";
export const SIMULATOR_APPROVE_SUBSCRIPTION_PATH = "/paypal-simulator/webapps/billing/subscriptions";
/** The credentials the simulator's OAuth server accepts (PAYPAL_MODE=simulator needs no real ones). */
export const SIMULATOR_CREDENTIALS = { clientId: "simulator-client-id", clientSecret: "simulator-client-secret" };
/** PayPal refuses refunds of a capture older than this. */
export const REFUND_DAYS = 180;
const TOKEN_SECONDS = 32_400;
const CERT_ID = "CERT-SIMULATOR-1";
const AUTH_ALGO = "SHA256withRSA";

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
type Q = Db | Tx;
type Json = Record<string, unknown>;
/** A stored object: PayPal's shape, with what the simulator keeps for itself under `_sim`. */
type Obj = { [field: string]: unknown; id: string; _sim: SimState };

/** An answer of the simulated API, and the webhook transmissions to make once it is committed. */
interface Answer {
  status: number;
  body: unknown;
  transmissions?: string[];
}

/** A PayPal error body, worded as PayPal words it. */
export function paypalError(
  status: number,
  name: string,
  message: string,
  details: { issue: string; description: string; field?: string }[] = [],
): Answer {
  return {
    status,
    body: {
      name,
      message,
      debug_id: randomBytes(7).toString("hex"),
      details,
      links: details[0]
        ? [
            {
              href: `https://developer.paypal.com/api/rest/reference/orders/v2/errors/#${details[0].issue}`,
              rel: "information_link",
              method: "GET",
            },
          ]
        : [],
    },
  };
}
const UNPROCESSABLE =
  "The requested action could not be performed, semantically incorrect, or failed business validation.";
const unprocessable = (issue: string, description: string) =>
  paypalError(422, "UNPROCESSABLE_ENTITY", UNPROCESSABLE, [{ issue, description }]);
const notFound = (field: string) =>
  paypalError(404, "RESOURCE_NOT_FOUND", "The specified resource does not exist.", [
    {
      issue: "INVALID_RESOURCE_ID",
      field,
      description: "Specified resource ID does not exist. Please check the resource ID and try again.",
    },
  ]);
export const invalidRequest = (error: z.ZodError) =>
  paypalError(
    400,
    "INVALID_REQUEST",
    "Request is not well-formed, syntactically incorrect, or violates schema.",
    error.issues.slice(0, 10).map((i) => ({
      field: "/" + i.path.join("/"),
      issue:
        i.code === "invalid_type" && i.input === undefined ? "MISSING_REQUIRED_PARAMETER" : "INVALID_PARAMETER_VALUE",
      description:
        i.code === "invalid_type" && i.input === undefined ? "A required field / parameter is missing." : i.message,
    })),
  );

/** PayPal-like ids: 17 upper-case letters and digits, or a prefix and 12-26 of them. */
const paypalId = (prefix = "", length = 17) => {
  const alphabet = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
  let out = "";
  for (const byte of randomBytes(length)) out += alphabet[byte % alphabet.length];
  return prefix + out;
};
const amountCents = (m: Money) => Math.round(Number(m.value) * 100);
const centsValue = (cents: number) => (cents / 100).toFixed(2);

// ── Request bodies the simulator accepts (PayPal's documented required fields) ───────────────────────────────────────
const experience = z.object({
  return_url: z.url(),
  cancel_url: z.url(),
  brand_name: z.string().max(127).optional(),
  shipping_preference: z.enum(["NO_SHIPPING", "GET_FROM_FILE", "SET_PROVIDED_ADDRESS"]).optional(),
  user_action: z.string().optional(),
});
const moneyIn = money.extend({ value: z.string().regex(/^\d{1,10}(\.\d{1,2})?$/, "must be an amount such as 10.00") });
export const createOrderBody = z.object({
  intent: z.enum(["CAPTURE", "AUTHORIZE"]),
  purchase_units: z
    .array(
      z.object({
        reference_id: z.string().max(256).optional(),
        description: z.string().max(127).optional(),
        invoice_id: z.string().max(127).optional(),
        custom_id: z.string().max(255).optional(),
        amount: moneyIn,
      }),
    )
    .min(1)
    .max(10),
  payment_source: z.object({ paypal: z.object({ experience_context: experience }) }).optional(),
  application_context: experience.optional(),
});
export const refundBody = z.object({
  amount: moneyIn.optional(),
  invoice_id: z.string().max(127).optional(),
  note_to_payer: z.string().max(255).optional(),
});
export const productBody = z.object({
  name: z.string().min(1).max(127),
  type: z.enum(["PHYSICAL", "DIGITAL", "SERVICE"]),
  description: z.string().max(256).optional(),
  category: z.string().optional(),
});
export const planBody = z.object({
  product_id: z.string().min(6).max(50),
  name: z.string().min(1).max(127),
  description: z.string().max(127).optional(),
  status: z.enum(["CREATED", "INACTIVE", "ACTIVE"]).optional(),
  billing_cycles: z.array(billingCycle).min(1).max(12),
  payment_preferences: z.object({
    auto_bill_outstanding: z.boolean().optional(),
    setup_fee_failure_action: z.enum(["CONTINUE", "CANCEL"]).optional(),
    payment_failure_threshold: z.number().int().min(0).max(999).optional(),
  }),
});
export const subscriptionBody = z.object({
  plan_id: z.string().min(3).max(50),
  custom_id: z.string().max(127).optional(),
  start_time: z.string().optional(),
  application_context: experience.optional(),
});
export const cancelBody = z.object({ reason: z.string().min(1).max(128) });
export const webhookBody = z.object({
  url: z.url().max(2048),
  event_types: z.array(z.object({ name: z.string().min(1) })).min(1),
});
export const verifyBody = z.object({
  auth_algo: z.string().min(1).max(100),
  cert_url: z.string().min(1).max(500),
  transmission_id: z.string().min(1).max(50),
  transmission_sig: z.string().min(1).max(500),
  transmission_time: z.string().min(1).max(100),
  webhook_id: z.string().min(1).max(50),
  webhook_event: z.record(z.string(), z.unknown()),
});

/** What the simulator keeps beside PayPal's shape of an object (never shown in an answer). */
interface SimState {
  /** An order: what the buyer chose on the approval page (the capture's outcome). */
  result?: "completed" | "pending" | "denied";
  /** An order made with payment_source: its approval link is `payer-action`, else `approve`. */
  approveRel?: "approve" | "payer-action";
  experience?: { return_url: string; cancel_url: string };
  /** A capture: the amount refunded so far, in cents; a sale's subscription. */
  refundedCents?: number;
  subscriptionId?: string;
  /** A subscription: its payments so far. */
  payments?: number;
}

/**
 * The simulator's REST side (issue 34, part 6): PayPal's REST paths and shapes on this server, its state in the
 * database, the approval page's outcomes as functions, and webhooks sent and signed the way PayPal does (the
 * transmission headers; the signature over `transmission id|time|webhook id|CRC32 of the body`, SHA256withRSA, the
 * public key at PAYPAL-CERT-URL), so that its verify-webhook-signature answers SUCCESS only for what it sent to that
 * webhook, unchanged.
 */
export function createPayPalRestSimulator(deps: {
  db: Db;
  logger: Logger;
  now: () => Date;
  /** PUBLIC_URL: the buyer's approval links, and the only origin webhooks are delivered to (as this server). */
  publicUrl: string;
  /** How this server reaches itself (known once it listens). */
  selfUrl: () => string;
}) {
  const { db, logger } = deps;
  const iso = () =>
    deps
      .now()
      .toISOString()
      .replace(/\.\d{3}Z$/, "Z");
  const base = () => deps.selfUrl() + SIMULATOR_REST_PREFIX;
  const publicOrigin = new URL(deps.publicUrl).origin;
  const publicBase = deps.publicUrl.replace(/\/+$/, "");

  // Faults and the request log live in this process: tests and the simulator's page set them for the next calls.
  const faults: { path: string; status?: number; delayMs?: number; times: number }[] = [];
  const log: { method: string; path: string; requestId: string | null; at: Date }[] = [];
  let holding = false;
  let key: { privateKey: string; publicKey: string } | null = null;

  // ── Objects ────────────────────────────────────────────────────────────────────────────────────────────────────
  async function get(q: Q, kind: string, id: string, lock = false) {
    const query = q
      .select()
      .from(simulatorRestObjects)
      .where(and(eq(simulatorRestObjects.id, id), eq(simulatorRestObjects.kind, kind)));
    const [row] = await (lock ? query.for("update") : query);
    return row ? ({ ...row.data, id: row.id, _sim: (row.data._sim ?? {}) as SimState } as Obj) : null;
  }
  async function put(q: Q, kind: string, id: string, data: Json, parentId: string | null = null) {
    await q.insert(simulatorRestObjects).values({ id, kind, parentId, data });
  }
  async function save(q: Q, id: string, data: Json) {
    await q.update(simulatorRestObjects).set({ data, updatedAt: deps.now() }).where(eq(simulatorRestObjects.id, id));
  }
  /** PayPal's shape of an object: what the simulator keeps for itself left out. */
  const shown = ({ _sim: _, ...rest }: Json) => rest;

  // ── Signing ────────────────────────────────────────────────────────────────────────────────────────────────────
  async function signingKey() {
    if (key) return key;
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
    key = row!.data as { privateKey: string; publicKey: string };
    return key;
  }
  const signedText = (transmissionId: string, time: string, webhookId: string, body: string) =>
    `${transmissionId}|${time}|${webhookId}|${crc32(Buffer.from(body, "utf8")) >>> 0}`;
  const certUrl = () => `${base()}/v1/notifications/certs/${CERT_ID}`;

  // ── Webhooks ───────────────────────────────────────────────────────────────────────────────────────────────────
  /** A PayPal event for every webhook that listens to its type: stored, signed, sent after the commit. */
  async function emit(
    q: Q,
    eventType: string,
    resourceType: string,
    resource: Json,
    summary: string,
  ): Promise<string[]> {
    const event = {
      id: paypalId("WH-", 17) + "-" + paypalId("", 17),
      event_version: "1.0",
      create_time: iso(),
      resource_type: resourceType,
      resource_version: resourceType === "sale" ? "1.0" : "2.0",
      event_type: eventType,
      summary,
      resource: shown(resource),
      links: [] as { href: string; rel: string; method: string }[],
    };
    event.links = [
      { href: `${base()}/v1/notifications/webhooks-events/${event.id}`, rel: "self", method: "GET" },
      { href: `${base()}/v1/notifications/webhooks-events/${event.id}/resend`, rel: "resend", method: "POST" },
    ];
    await put(q, "event", event.id, event);
    return transmit(q, event);
  }

  async function transmit(q: Q, event: Json & { id: string; event_type: string }): Promise<string[]> {
    const hooks = await q.select().from(simulatorRestObjects).where(eq(simulatorRestObjects.kind, "webhook"));
    const body = JSON.stringify(event);
    const { privateKey } = await signingKey();
    const rows = hooks
      .filter((hook) => {
        const types = (hook.data.event_types as { name: string }[]).map((t) => t.name);
        return types.includes("*") || types.includes(event.event_type);
      })
      .map((hook) => {
        const id = randomUUID();
        const time = iso();
        const signature = createSign("sha256")
          .update(signedText(id, time, hook.id, body))
          .sign(privateKey, "base64");
        return { id, webhookId: hook.id, eventId: event.id, body, transmissionTime: time, signature };
      });
    if (rows.length) await q.insert(simulatorWebhookTransmissions).values(rows);
    const ids = rows.map((r) => r.id);
    return ids;
  }

  /** Sends transmissions to their webhook's address (only this site's own: the simulator reaches nothing else). */
  async function deliver(ids: string[]) {
    if (!ids.length || holding) return;
    const rows = await db
      .select({ t: simulatorWebhookTransmissions, url: sql<string>`${simulatorRestObjects.data}->>'url'` })
      .from(simulatorWebhookTransmissions)
      .innerJoin(simulatorRestObjects, eq(simulatorRestObjects.id, simulatorWebhookTransmissions.webhookId))
      .where(and(inArray(simulatorWebhookTransmissions.id, ids), isNull(simulatorWebhookTransmissions.sentAt)))
      .orderBy(asc(simulatorWebhookTransmissions.seq));
    for (const { t, url } of rows) {
      let status = 0;
      const target = new URL(url);
      if (target.origin !== publicOrigin) {
        logger.warn({ url }, "the PayPal simulator sends webhooks only to this site");
      } else {
        try {
          const res = await fetch(deps.selfUrl() + target.pathname + target.search, {
            method: "POST",
            headers: {
              "content-type": "application/json",
              "user-agent": "PayPal/AUHR-214.0-58372049",
              "paypal-transmission-id": t.id,
              "paypal-transmission-time": t.transmissionTime,
              "paypal-transmission-sig": t.signature,
              "paypal-cert-url": certUrl(),
              "paypal-auth-algo": AUTH_ALGO,
            },
            body: t.body,
            signal: AbortSignal.timeout(10_000),
          });
          status = res.status;
          await res.arrayBuffer().catch(() => undefined);
        } catch (error) {
          logger.warn({ error, url }, "the simulated webhook was not delivered");
        }
      }
      await db
        .update(simulatorWebhookTransmissions)
        .set({ answeredStatus: status, sentAt: deps.now() })
        .where(eq(simulatorWebhookTransmissions.id, t.id));
    }
  }

  /**
   * Sends transmissions after the answer, in the order they were made, as PayPal does: a webhook may arrive before or
   * after the API's answer to the call that caused it.
   */
  let deliveries: Promise<void> = Promise.resolve();
  function deliverLater(ids: string[]) {
    if (!ids.length) return;
    deliveries = deliveries
      .then(() => deliver(ids))
      .catch((error: unknown) => logger.error({ error }, "the PayPal simulator's webhooks failed"));
  }

  /** Runs a change in one transaction, then sends its webhooks. */
  async function change(run: (tx: Tx) => Promise<Answer>): Promise<Answer> {
    const answer = await db.transaction(run);
    deliverLater(answer.transmissions ?? []);
    return answer;
  }

  /**
   * A call with PayPal-Request-Id: the first answer is kept and every later call with the same id gets it back without
   * running again (PayPal's idempotency). Without the header each call runs.
   */
  async function idempotent(scope: string, requestId: string | undefined, run: (tx: Tx) => Promise<Answer>) {
    if (!requestId) return change(run);
    const k = `${scope}|${requestId}`;
    let replay = false;
    const answer = await db.transaction(async (tx) => {
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
    if (!replay) deliverLater(answer.transmissions ?? []);
    return answer;
  }

  // ── Orders and captures ──────────────────────────────────────────────────────────────────────────────────────────
  const orderLinks = (id: string, status: string, approveRel: string) => [
    { href: `${base()}/v2/checkout/orders/${id}`, rel: "self", method: "GET" },
    ...(status === "CREATED" || status === "PAYER_ACTION_REQUIRED"
      ? [{ href: `${publicBase}${SIMULATOR_APPROVE_ORDER_PATH}?token=${id}`, rel: approveRel, method: "GET" }]
      : []),
    ...(status !== "COMPLETED"
      ? [{ href: `${base()}/v2/checkout/orders/${id}/capture`, rel: "capture", method: "POST" }]
      : []),
  ];

  async function presentOrder(q: Q, order: Json & { id: string; _sim: SimState }) {
    const captures = await q
      .select()
      .from(simulatorRestObjects)
      .where(and(eq(simulatorRestObjects.kind, "capture"), eq(simulatorRestObjects.parentId, order.id)))
      .orderBy(asc(simulatorRestObjects.createdAt));
    const units = (order.purchase_units as Json[]).map((u) => ({
      ...u,
      ...(captures.length ? { payments: { captures: captures.map((c) => shown(c.data)) } } : {}),
    }));
    return {
      ...shown(order),
      purchase_units: units,
      links: orderLinks(order.id, order.status as string, order._sim.approveRel ?? "approve"),
    };
  }

  function captureLinks(id: string, orderId: string) {
    return [
      { href: `${base()}/v2/payments/captures/${id}`, rel: "self", method: "GET" },
      { href: `${base()}/v2/payments/captures/${id}/refund`, rel: "refund", method: "POST" },
      { href: `${base()}/v2/checkout/orders/${orderId}`, rel: "up", method: "GET" },
    ];
  }

  async function createOrder(input: z.infer<typeof createOrderBody>, requestId?: string) {
    return idempotent("orders.create", requestId, async (tx) => {
      const id = paypalId();
      const ctx = input.payment_source?.paypal.experience_context ?? input.application_context;
      const status = input.payment_source ? "PAYER_ACTION_REQUIRED" : "CREATED";
      const order = {
        id,
        intent: input.intent,
        status,
        purchase_units: input.purchase_units.map((u, i) => ({
          reference_id: u.reference_id ?? (i === 0 ? "default" : String(i)),
          ...u,
        })),
        create_time: iso(),
        update_time: iso(),
        _sim: {
          approveRel: input.payment_source ? "payer-action" : "approve",
          experience: ctx ? { return_url: ctx.return_url, cancel_url: ctx.cancel_url } : undefined,
        } as SimState,
      };
      await put(tx, "order", id, order);
      return { status: 201, body: await presentOrder(tx, order) };
    });
  }

  async function captureOrder(orderId: string, requestId?: string) {
    return idempotent(`orders.capture.${orderId}`, requestId, async (tx) => {
      const order = await get(tx, "order", orderId, true);
      if (!order) return notFound("order_id");
      if (order.status === "COMPLETED")
        return unprocessable(
          "ORDER_ALREADY_CAPTURED",
          "Order already captured.If 'intent=CAPTURE' only one capture per order is allowed.",
        );
      if (order.status !== "APPROVED")
        return unprocessable(
          "ORDER_NOT_APPROVED",
          "Payer has not yet approved the Order for payment. Please redirect the payer to the 'rel':'approve' url returned as part of the HATEOAS links within the Create Order call or provide a valid payment_source in the request.",
        );
      const unit = (order.purchase_units as { amount: Money; invoice_id?: string; custom_id?: string }[])[0]!;
      const result = order._sim.result ?? "completed";
      const captureId = paypalId();
      const status = result === "completed" ? "COMPLETED" : result === "pending" ? "PENDING" : "DECLINED";
      const capture = {
        id: captureId,
        status,
        ...(status === "PENDING" ? { status_details: { reason: "PENDING_REVIEW" } } : {}),
        amount: unit.amount,
        final_capture: true,
        seller_protection: {
          status: "ELIGIBLE",
          dispute_categories: ["ITEM_NOT_RECEIVED", "UNAUTHORIZED_TRANSACTION"],
        },
        ...(unit.invoice_id ? { invoice_id: unit.invoice_id } : {}),
        ...(unit.custom_id ? { custom_id: unit.custom_id } : {}),
        supplementary_data: { related_ids: { order_id: orderId } },
        create_time: iso(),
        update_time: iso(),
        links: captureLinks(captureId, orderId),
        _sim: { refundedCents: 0 } as SimState,
      };
      await put(tx, "capture", captureId, capture, orderId);
      const completed = { ...order, status: "COMPLETED", update_time: iso() };
      await save(tx, orderId, completed);
      const eventType = {
        COMPLETED: "PAYMENT.CAPTURE.COMPLETED",
        PENDING: "PAYMENT.CAPTURE.PENDING",
        DECLINED: "PAYMENT.CAPTURE.DECLINED",
      }[status];
      const transmissions = await emit(
        tx,
        eventType,
        "capture",
        capture,
        `Payment ${status.toLowerCase()} for $ ${unit.amount.value} ${unit.amount.currency_code}`,
      );
      return { status: 201, body: await presentOrder(tx, completed), transmissions };
    });
  }

  async function refundCapture(
    captureId: string,
    input: z.infer<typeof refundBody>,
    requestId?: string,
    viaApi = true,
  ) {
    return idempotent(`captures.refund.${captureId}`, requestId, async (tx) => {
      const capture = await get(tx, "capture", captureId, true);
      if (!capture) return notFound("capture_id");
      const amount = capture.amount as Money;
      const refunded = capture._sim.refundedCents ?? 0;
      if (capture.status === "REFUNDED")
        return unprocessable("CAPTURE_FULLY_REFUNDED", "The capture has already been fully refunded");
      if (capture.status === "PENDING")
        return unprocessable(
          "PENDING_CAPTURE",
          "Cannot initiate a refund as the capture is pending. Capture is typically pending when the payer has paid by eCheck.",
        );
      if (capture.status !== "COMPLETED" && capture.status !== "PARTIALLY_REFUNDED")
        return unprocessable("TRANSACTION_REFUSED", "The request was refused.");
      const age = deps.now().getTime() - new Date(capture.create_time as string).getTime();
      if (viaApi && age > REFUND_DAYS * 86_400_000)
        return unprocessable(
          "REFUND_TIME_LIMIT_EXCEEDED",
          "You are over the time limit to perform a refund on this capture.",
        );
      if (input.amount && input.amount.currency_code !== amount.currency_code)
        return unprocessable("REFUND_CAPTURE_CURRENCY_MISMATCH", "Refund must be in the same currency as the capture.");
      const cents = input.amount ? amountCents(input.amount) : amountCents(amount) - refunded;
      if (cents <= 0) return unprocessable("CANNOT_BE_ZERO_OR_NEGATIVE", "Must be greater than zero.");
      if (refunded + cents > amountCents(amount))
        return unprocessable(
          "REFUND_AMOUNT_EXCEEDED",
          "The refund amount must be less than or equal to the capture amount that has not yet been refunded.",
        );
      const refundId = paypalId();
      const refund = {
        id: refundId,
        status: "COMPLETED",
        amount: { currency_code: amount.currency_code, value: centsValue(cents) },
        ...((input.invoice_id ?? capture.invoice_id) ? { invoice_id: input.invoice_id ?? capture.invoice_id } : {}),
        ...(capture.custom_id ? { custom_id: capture.custom_id } : {}),
        ...(input.note_to_payer ? { note_to_payer: input.note_to_payer } : {}),
        seller_payable_breakdown: {
          gross_amount: { currency_code: amount.currency_code, value: centsValue(cents) },
          net_amount: { currency_code: amount.currency_code, value: centsValue(cents) },
          total_refunded_amount: { currency_code: amount.currency_code, value: centsValue(refunded + cents) },
        },
        create_time: iso(),
        update_time: iso(),
        links: [
          { href: `${base()}/v2/payments/refunds/${refundId}`, rel: "self", method: "GET" },
          { href: `${base()}/v2/payments/captures/${captureId}`, rel: "up", method: "GET" },
        ],
      };
      await put(tx, "refund", refundId, refund, captureId);
      const total = refunded + cents;
      await save(tx, captureId, {
        ...capture,
        status: total >= amountCents(amount) ? "REFUNDED" : "PARTIALLY_REFUNDED",
        update_time: iso(),
        _sim: { ...capture._sim, refundedCents: total },
      });
      const transmissions = await emit(
        tx,
        "PAYMENT.CAPTURE.REFUNDED",
        "refund",
        refund,
        `A $ ${refund.amount.value} ${amount.currency_code} capture payment was refunded`,
      );
      return { status: 201, body: refund, transmissions };
    });
  }

  // ── Catalogue, plans, subscriptions ──────────────────────────────────────────────────────────────────────────────
  async function createProduct(input: z.infer<typeof productBody>, requestId?: string) {
    return idempotent("products.create", requestId, async (tx) => {
      const id = paypalId("PROD-", 17);
      const product = {
        id,
        ...input,
        create_time: iso(),
        update_time: iso(),
        links: [{ href: `${base()}/v1/catalogs/products/${id}`, rel: "self", method: "GET" }],
      };
      await put(tx, "product", id, product);
      return { status: 201, body: product };
    });
  }

  async function createPlan(input: z.infer<typeof planBody>, requestId?: string) {
    return idempotent("plans.create", requestId, async (tx) => {
      if (!(await get(tx, "product", input.product_id))) return notFound("product_id");
      const regular = input.billing_cycles.filter((c) => c.tenure_type === "REGULAR");
      if (regular.length !== 1 || input.billing_cycles.some((c) => !c.pricing_scheme))
        return unprocessable(
          "INVALID_BILLING_CYCLES",
          "A plan has one regular billing cycle and a price for each cycle.",
        );
      const id = paypalId("P-", 24);
      const plan = {
        id,
        product_id: input.product_id,
        name: input.name,
        ...(input.description ? { description: input.description } : {}),
        status: input.status ?? "ACTIVE",
        usage_type: "LICENSED",
        billing_cycles: [...input.billing_cycles].sort((a, b) => a.sequence - b.sequence),
        payment_preferences: {
          auto_bill_outstanding: true,
          setup_fee_failure_action: "CANCEL",
          payment_failure_threshold: 0,
          ...input.payment_preferences,
        },
        create_time: iso(),
        update_time: iso(),
        links: [{ href: `${base()}/v1/billing/plans/${id}`, rel: "self", method: "GET" }],
      };
      await put(tx, "plan", id, plan, input.product_id);
      return { status: 201, body: plan };
    });
  }

  const subscriptionLinks = (id: string, status: string) => [
    ...(status === "APPROVAL_PENDING"
      ? [
          {
            href: `${publicBase}${SIMULATOR_APPROVE_SUBSCRIPTION_PATH}?ba_token=BA-${id.slice(2)}&subscription_id=${id}`,
            rel: "approve",
            method: "GET",
          },
        ]
      : []),
    { href: `${base()}/v1/billing/subscriptions/${id}`, rel: "edit", method: "PATCH" },
    { href: `${base()}/v1/billing/subscriptions/${id}`, rel: "self", method: "GET" },
    ...(status === "ACTIVE" || status === "SUSPENDED"
      ? [{ href: `${base()}/v1/billing/subscriptions/${id}/cancel`, rel: "cancel", method: "POST" }]
      : []),
  ];
  const presentSubscription = (s: Json & { id: string; status?: unknown }) => ({
    ...shown(s),
    links: subscriptionLinks(s.id, String(s.status)),
  });

  async function createSubscription(input: z.infer<typeof subscriptionBody>, requestId?: string) {
    return idempotent("subscriptions.create", requestId, async (tx) => {
      const plan = await get(tx, "plan", input.plan_id);
      if (!plan) return notFound("plan_id");
      if (plan.status !== "ACTIVE")
        return unprocessable("PLAN_STATUS_INVALID", "Invalid plan status. Plan status should be active.");
      const id = paypalId("I-", 12);
      const ctx = input.application_context;
      const subscription = {
        id,
        status: "APPROVAL_PENDING",
        status_update_time: iso(),
        plan_id: input.plan_id,
        plan_overridden: false,
        start_time: input.start_time ?? iso(),
        quantity: "1",
        ...(input.custom_id ? { custom_id: input.custom_id } : {}),
        create_time: iso(),
        _sim: {
          experience: ctx ? { return_url: ctx.return_url, cancel_url: ctx.cancel_url } : undefined,
          payments: 0,
        } as SimState,
      };
      await put(tx, "subscription", id, subscription, input.plan_id);
      return { status: 201, body: presentSubscription(subscription) };
    });
  }

  async function cancelSubscription(id: string, reason: string, requestId?: string) {
    return idempotent(`subscriptions.cancel.${id}`, requestId, async (tx) => {
      const s = await get(tx, "subscription", id, true);
      if (!s) return notFound("subscription_id");
      if (s.status !== "ACTIVE" && s.status !== "SUSPENDED")
        return unprocessable(
          "SUBSCRIPTION_STATUS_INVALID",
          "Invalid subscription status for cancel action; subscription status should be active or suspended.",
        );
      // A cancelled subscription bills no more: no next billing time.
      const { next_billing_time: _, ...billing } = (s.billing_info ?? {}) as Json;
      const cancelled: Obj = {
        ...s,
        status: "CANCELLED",
        status_change_note: reason,
        status_update_time: iso(),
        update_time: iso(),
        ...(s.billing_info ? { billing_info: billing } : {}),
      };
      await save(tx, id, cancelled);
      const transmissions = await emit(
        tx,
        "BILLING.SUBSCRIPTION.CANCELLED",
        "subscription",
        presentSubscription(cancelled),
        "Subscription cancelled",
      );
      return { status: 204, body: null, transmissions };
    });
  }

  /** The cycle that payment `n` (from 1) falls in: a trial's cycles first, then the regular one. */
  function cycleOf(cycles: BillingCycle[], n: number): BillingCycle | null {
    let before = 0;
    for (const c of cycles) {
      if (c.total_cycles === 0 || n <= before + c.total_cycles) return c;
      before += c.total_cycles;
    }
    return null;
  }
  const UNIT_MS = { DAY: 86_400_000, WEEK: 7 * 86_400_000 } as const;
  function after(from: Date, c: BillingCycle): Date {
    const d = new Date(from);
    const { interval_unit: unit, interval_count: count } = c.frequency;
    if (unit === "DAY" || unit === "WEEK") return new Date(d.getTime() + UNIT_MS[unit] * count);
    if (unit === "MONTH") d.setUTCMonth(d.getUTCMonth() + count);
    else d.setUTCFullYear(d.getUTCFullYear() + count);
    return d;
  }

  /** The subscription's next payment taken (a sale, shown as a capture too so it can be refunded), and its webhook. */
  async function takePayment(
    tx: Tx,
    s: Json & { id: string; _sim: SimState },
  ): Promise<{ saleId: string; transmissions: string[]; subscription: Json } | null> {
    const plan = (await get(tx, "plan", s.plan_id as string))!;
    const cycles = plan.billing_cycles as BillingCycle[];
    const n = (s._sim.payments ?? 0) + 1;
    const cycle = cycleOf(cycles, n);
    if (!cycle) return null;
    const price = cycle.pricing_scheme!.fixed_price;
    const saleId = paypalId();
    const sale = {
      id: saleId,
      state: "completed",
      amount: { total: price.value, currency: price.currency_code, details: { subtotal: price.value } },
      payment_mode: "INSTANT_TRANSFER",
      protection_eligibility: "ELIGIBLE",
      transaction_fee: { value: "0.00", currency: price.currency_code },
      billing_agreement_id: s.id,
      ...(s.custom_id ? { custom: s.custom_id } : {}),
      create_time: iso(),
      update_time: iso(),
      links: [{ href: `${base()}/v2/payments/captures/${saleId}/refund`, rel: "refund", method: "POST" }],
    };
    // Refundable through /v2/payments/captures/{id}/refund like any payment.
    await put(
      tx,
      "capture",
      saleId,
      {
        id: saleId,
        status: "COMPLETED",
        amount: price,
        final_capture: true,
        ...(s.custom_id ? { custom_id: s.custom_id } : {}),
        create_time: iso(),
        update_time: iso(),
        links: captureLinks(saleId, s.id),
        _sim: { refundedCents: 0, subscriptionId: s.id } as SimState,
      },
      s.id,
    );
    const executions = cycles.map((c) => {
      let before = 0;
      for (const other of cycles) if (other.sequence < c.sequence) before += other.total_cycles;
      const done = Math.max(0, Math.min(n - before, c.total_cycles || Infinity));
      return {
        tenure_type: c.tenure_type,
        sequence: c.sequence,
        cycles_completed: done,
        ...(c.total_cycles
          ? { cycles_remaining: c.total_cycles - done, total_cycles: c.total_cycles }
          : { cycles_remaining: 0, total_cycles: 0 }),
      };
    });
    const next = cycleOf(cycles, n + 1);
    const info = (s.billing_info ?? {}) as Json;
    const updated = {
      ...s,
      status: "ACTIVE",
      update_time: iso(),
      billing_info: {
        outstanding_balance: { currency_code: price.currency_code, value: "0.00" },
        cycle_executions: executions,
        last_payment: { amount: price, time: iso() },
        ...(next
          ? {
              next_billing_time: after(deps.now(), cycle)
                .toISOString()
                .replace(/\.\d{3}Z$/, "Z"),
            }
          : {}),
        failed_payments_count: (info.failed_payments_count as number | undefined) ?? 0,
      },
      _sim: { ...s._sim, payments: n },
    };
    await save(tx, s.id, updated);
    const transmissions = await emit(
      tx,
      "PAYMENT.SALE.COMPLETED",
      "sale",
      sale,
      `Payment completed for $ ${price.value} ${price.currency_code}`,
    );
    return { saleId, transmissions, subscription: updated };
  }

  /** PayPal sends the newest event that meets `where` again (a new transmission of it); null when there is none. */
  async function resendLastEvent(...where: SQL[]): Promise<string[] | null> {
    const [last] = await db
      .select({ id: simulatorRestObjects.id })
      .from(simulatorRestObjects)
      .where(and(eq(simulatorRestObjects.kind, "event"), ...where))
      .orderBy(desc(simulatorRestObjects.createdAt))
      .limit(1);
    return last ? outcomes.resendEvent(last.id) : null;
  }

  // ── The approval page's outcomes and what PayPal does later (the next step puts a page behind these) ─────────────
  const outcomes = {
    /** The buyer approves an order (with their PayPal account, or by card as a guest); `result` is what the capture will be. */
    approveOrder: async (
      orderId: string,
      how: { payer?: "paypal" | "card"; result?: "completed" | "pending" | "denied" } = {},
    ) => {
      const answer = await change(async (tx) => {
        const order = await get(tx, "order", orderId, true);
        if (!order) return notFound("order_id");
        if (order.status !== "CREATED" && order.status !== "PAYER_ACTION_REQUIRED")
          return unprocessable("ORDER_NOT_APPROVABLE", "This order cannot be approved again.");
        const paymentSource =
          how.payer === "card"
            ? { card: { name: "Simulated Guest", last_digits: "1111", brand: "VISA", type: "CREDIT" } }
            : {
                paypal: {
                  email_address: "buyer@example.com",
                  account_id: "SIMULATEDPAYER",
                  account_status: "VERIFIED",
                  name: { given_name: "Simulated", surname: "Buyer" },
                },
              };
        const approved = {
          ...order,
          status: "APPROVED",
          payment_source: paymentSource,
          payer: {
            name: { given_name: "Simulated", surname: how.payer === "card" ? "Guest" : "Buyer" },
            email_address: "buyer@example.com",
            payer_id: "SIMULATEDPAYER",
          },
          update_time: iso(),
          _sim: { ...order._sim, result: how.result ?? "completed" },
        };
        await save(tx, orderId, approved);
        const transmissions = await emit(
          tx,
          "CHECKOUT.ORDER.APPROVED",
          "checkout-order",
          await presentOrder(tx, approved),
          "An order has been approved by buyer",
        );
        const back = order._sim.experience?.return_url;
        return {
          status: 200,
          body: back ? `${back}${back.includes("?") ? "&" : "?"}token=${orderId}&PayerID=SIMULATEDPAYER` : null,
          transmissions,
        };
      });
      return orThrow(answer) as string | null;
    },
    /** The buyer cancels on the approval page: where PayPal sends them back (the order stays unapproved). */
    cancelOrder: async (orderId: string) => {
      const order = await get(db, "order", orderId);
      if (!order) throw new Error(`no simulated order ${orderId}`);
      const back = order._sim.experience?.cancel_url;
      return back ? `${back}${back.includes("?") ? "&" : "?"}token=${orderId}` : null;
    },
    /** A pending capture clears (COMPLETED) or is denied (DENIED), with PayPal's webhook. */
    settleCapture: async (captureId: string, to: "COMPLETED" | "DENIED") =>
      orThrow(
        await change(async (tx) => {
          const capture = await get(tx, "capture", captureId, true);
          if (!capture || capture.status !== "PENDING")
            return unprocessable("CAPTURE_NOT_PENDING", "Only a pending capture settles.");
          const settled = { ...capture, status: to, update_time: iso() };
          delete (settled as Json).status_details;
          await save(tx, captureId, settled);
          const transmissions = await emit(
            tx,
            `PAYMENT.CAPTURE.${to}`,
            "capture",
            settled,
            `Payment ${to.toLowerCase()}`,
          );
          return { status: 200, body: null, transmissions };
        }),
      ),
    /** Staff refund in PayPal's own dashboard (no time limit applied here): the webhook is all this site hears. */
    refundInPayPal: async (captureId: string, amount?: Money) =>
      orThrow(await refundCapture(captureId, amount ? { amount } : {}, undefined, false)) as Json,
    /** The buyer's bank or a lost dispute takes the money back. */
    reverseCapture: async (captureId: string) =>
      orThrow(
        await change(async (tx) => {
          const capture = await get(tx, "capture", captureId, true);
          if (!capture || (capture.status !== "COMPLETED" && capture.status !== "PARTIALLY_REFUNDED"))
            return unprocessable("TRANSACTION_REFUSED", "Only a completed capture can be reversed.");
          const amount = capture.amount as Money;
          const left = amountCents(amount) - (capture._sim.refundedCents ?? 0);
          const reversed = { ...capture, status: "REVERSED", update_time: iso() };
          await save(tx, captureId, reversed);
          const refundId = paypalId();
          const resource = {
            id: refundId,
            status: "COMPLETED",
            amount: { currency_code: amount.currency_code, value: centsValue(left) },
            ...(capture.invoice_id ? { invoice_id: capture.invoice_id } : {}),
            ...(capture.custom_id ? { custom_id: capture.custom_id } : {}),
            note_to_payer: "Payment reversed",
            create_time: iso(),
            update_time: iso(),
            links: [{ href: `${base()}/v2/payments/captures/${captureId}`, rel: "up", method: "GET" }],
          };
          await put(tx, "refund", refundId, resource, captureId);
          const transmissions = await emit(
            tx,
            "PAYMENT.CAPTURE.REVERSED",
            "refund",
            resource,
            "A payment was reversed",
          );
          return { status: 200, body: null, transmissions };
        }),
      ),
    /** The buyer agrees to a subscription: ACTIVATED, and its first payment taken. Answers the return address. */
    approveSubscription: async (id: string) => {
      const answer = await change(async (tx) => {
        const s = await get(tx, "subscription", id, true);
        if (!s) return notFound("subscription_id");
        if (s.status !== "APPROVAL_PENDING")
          return unprocessable("SUBSCRIPTION_STATUS_INVALID", "This subscription was approved already.");
        const active = {
          ...s,
          status: "ACTIVE",
          status_update_time: iso(),
          subscriber: {
            email_address: "buyer@example.com",
            payer_id: "SIMULATEDPAYER",
            name: { given_name: "Simulated", surname: "Buyer" },
          },
        };
        await save(tx, id, active);
        const activated = await emit(
          tx,
          "BILLING.SUBSCRIPTION.ACTIVATED",
          "subscription",
          presentSubscription(active),
          "Subscription activated",
        );
        const paid = await takePayment(tx, active);
        const back = s._sim.experience?.return_url;
        return {
          status: 200,
          body: back
            ? `${back}${back.includes("?") ? "&" : "?"}subscription_id=${id}&ba_token=BA-${id.slice(2)}&token=${paypalId("", 17)}`
            : null,
          transmissions: [...activated, ...(paid?.transmissions ?? [])],
        };
      });
      return orThrow(answer) as string | null;
    },
    /** The buyer cancels on the subscription's approval page: where PayPal sends them back (it stays unapproved). */
    cancelSubscriptionApproval: async (id: string) => {
      const s = await get(db, "subscription", id);
      if (!s) throw new Error(`no simulated subscription ${id}`);
      const back = s._sim.experience?.cancel_url;
      return back ? `${back}${back.includes("?") ? "&" : "?"}subscription_id=${id}&ba_token=BA-${id.slice(2)}` : null;
    },
    /** The next period's payment (a renewal); null when the plan's cycles are all paid. */
    renewSubscription: async (id: string) => {
      const answer = await change(async (tx) => {
        const s = await get(tx, "subscription", id, true);
        if (!s || s.status !== "ACTIVE")
          return unprocessable("SUBSCRIPTION_STATUS_INVALID", "Only an active subscription renews.");
        const paid = await takePayment(tx, s);
        return { status: 200, body: paid?.saleId ?? null, transmissions: paid?.transmissions ?? [] };
      });
      return orThrow(answer) as string | null;
    },
    /** A renewal payment fails (BILLING.SUBSCRIPTION.PAYMENT.FAILED). */
    failSubscriptionPayment: async (id: string) =>
      orThrow(
        await change(async (tx) => {
          const s = await get(tx, "subscription", id, true);
          if (!s || s.status !== "ACTIVE")
            return unprocessable("SUBSCRIPTION_STATUS_INVALID", "Only an active subscription bills.");
          const info = (s.billing_info ?? { failed_payments_count: 0 }) as Json;
          const count = ((info.failed_payments_count as number) ?? 0) + 1;
          // The plan's payment_failure_threshold reached: PayPal suspends the subscription (0: never).
          const plan = await get(tx, "plan", s.plan_id as string);
          const threshold = Number((plan?.payment_preferences as Json | undefined)?.payment_failure_threshold ?? 0);
          const suspended = threshold > 0 && count >= threshold;
          const failed = {
            ...s,
            ...(suspended ? { status: "SUSPENDED", status_update_time: iso() } : {}),
            billing_info: { ...info, failed_payments_count: count },
            update_time: iso(),
          };
          await save(tx, id, failed);
          const transmissions = await emit(
            tx,
            "BILLING.SUBSCRIPTION.PAYMENT.FAILED",
            "subscription",
            presentSubscription(failed),
            "Subscription payment failed",
          );
          if (suspended)
            transmissions.push(
              ...(await emit(
                tx,
                "BILLING.SUBSCRIPTION.SUSPENDED",
                "subscription",
                presentSubscription(failed),
                "Subscription suspended",
              )),
            );
          return { status: 200, body: null, transmissions };
        }),
      ),
    /** PayPal suspends (too many failed payments), the buyer cancels in PayPal, or the term ends. */
    setSubscriptionStatus: async (id: string, to: "SUSPENDED" | "CANCELLED" | "EXPIRED") =>
      orThrow(
        await change(async (tx) => {
          const s = await get(tx, "subscription", id, true);
          if (!s || (s.status !== "ACTIVE" && s.status !== "SUSPENDED"))
            return unprocessable("SUBSCRIPTION_STATUS_INVALID", "Only an active or suspended subscription changes.");
          const changed = { ...s, status: to, status_update_time: iso(), update_time: iso() };
          await save(tx, id, changed);
          const transmissions = await emit(
            tx,
            `BILLING.SUBSCRIPTION.${to}`,
            "subscription",
            presentSubscription(changed),
            `Subscription ${to.toLowerCase()}`,
          );
          return { status: 200, body: null, transmissions };
        }),
      ),
    /** PayPal sends an event again (a new transmission of the same event id): the same notice twice. */
    resendEvent: async (eventId: string) => {
      const ids = await db.transaction(async (tx) => {
        const event = await get(tx, "event", eventId);
        if (!event) throw new Error(`no simulated event ${eventId}`);
        return transmit(tx, shown(event) as Json & { id: string; event_type: string });
      });
      deliverLater(ids);
      return ids;
    },
    /** PayPal sends the last webhook about a capture (completed, pending, denied, refunded …) again; null when none. */
    resendLastCaptureEvent: async (captureId: string) =>
      resendLastEvent(
        sql`${simulatorRestObjects.data}->>'event_type' like 'PAYMENT.CAPTURE.%'`,
        sql`(${simulatorRestObjects.data}->'resource'->>'id' = ${captureId} or ${simulatorRestObjects.data}->'resource'->'links' @> ${JSON.stringify([{ rel: "up", href: `${base()}/v2/payments/captures/${captureId}` }])}::jsonb)`,
      ),
    /** PayPal sends a subscription's last payment webhook (PAYMENT.SALE.COMPLETED) again; null when it has none. */
    resendLastPayment: async (subscriptionId: string) =>
      resendLastEvent(
        sql`${simulatorRestObjects.data}->>'event_type' = 'PAYMENT.SALE.COMPLETED'`,
        sql`${simulatorRestObjects.data}->'resource'->>'billing_agreement_id' = ${subscriptionId}`,
      ),
    /** Webhooks are kept back (sent late) until `sendHeldWebhooks`. */
    holdWebhooks: (on: boolean) => {
      holding = on;
    },
    /** Stops holding and sends what was held, oldest first; answers how many. */
    sendHeldWebhooks: async () => {
      holding = false;
      await deliveries;
      const held = await db
        .select({ id: simulatorWebhookTransmissions.id })
        .from(simulatorWebhookTransmissions)
        .where(isNull(simulatorWebhookTransmissions.sentAt))
        .orderBy(asc(simulatorWebhookTransmissions.seq));
      deliverLater(held.map((h) => h.id));
      await deliveries;
      return held.length;
    },
  };

  return {
    outcomes,
    /** The next `times` calls to a path (its start, after the prefix) answer `status`, or wait `delayMs` first. */
    fault(fault: { path: string; status?: number; delayMs?: number; times?: number }) {
      faults.push({ ...fault, times: fault.times ?? 1 });
    },
    /** Resolves once every webhook queued so far was sent (or held). */
    webhooksSent: () => deliveries,
    /** The calls received (method, path, PayPal-Request-Id), oldest first. */
    received: () => [...log],
    /** The webhook transmissions made, oldest first (what was sent, when, and how our endpoint answered). */
    transmissions: () =>
      db.select().from(simulatorWebhookTransmissions).orderBy(asc(simulatorWebhookTransmissions.seq)),

    /** Notes a call and applies a pending fault to it: an answer to send instead, or null to go on. */
    async intercept(method: string, path: string, requestId: string | null): Promise<Answer | null> {
      log.push({ method, path, requestId, at: deps.now() });
      if (log.length > 1000) log.shift();
      const fault = faults.find((f) => path.startsWith(f.path));
      if (!fault) return null;
      if (--fault.times <= 0) faults.splice(faults.indexOf(fault), 1);
      if (fault.delayMs) await new Promise((resolve) => setTimeout(resolve, fault.delayMs));
      if (fault.status)
        return paypalError(
          fault.status,
          fault.status === 429 ? "RATE_LIMIT_REACHED" : "INTERNAL_SERVICE_ERROR",
          fault.status === 429
            ? "Too many requests. Blocked due to rate limiting."
            : "An internal service error has occurred.",
        );
      return null;
    },

    async token(authorization: string | undefined, body: Record<string, unknown>): Promise<Answer> {
      const [scheme, encoded] = (authorization ?? "").split(" ");
      const [id, secret] = Buffer.from(encoded ?? "", "base64")
        .toString("utf8")
        .split(":");
      if (scheme !== "Basic" || id !== SIMULATOR_CREDENTIALS.clientId || secret !== SIMULATOR_CREDENTIALS.clientSecret)
        return { status: 401, body: { error: "invalid_client", error_description: "Client Authentication failed" } };
      if (body.grant_type !== "client_credentials")
        return { status: 400, body: { error: "unsupported_grant_type", error_description: "Grant Type is NULL" } };
      const token = "A21AA" + randomBytes(32).toString("base64url");
      await put(db, "token", token, { expiresAt: deps.now().getTime() + TOKEN_SECONDS * 1000 });
      return {
        status: 200,
        body: {
          scope:
            "https://uri.paypal.com/services/payments/refund https://uri.paypal.com/services/subscriptions https://uri.paypal.com/services/applications/webhooks",
          access_token: token,
          token_type: "Bearer",
          app_id: "APP-SIMULATOR",
          expires_in: TOKEN_SECONDS,
          nonce: `${iso()}${randomBytes(8).toString("hex")}`,
        },
      };
    },

    /** Whether a bearer token is one this simulator issued and still valid. */
    async authorized(authorization: string | undefined): Promise<boolean> {
      const m = /^Bearer (\S+)$/.exec(authorization ?? "");
      if (!m) return false;
      const row = await get(db, "token", m[1]!);
      return Boolean(row && (row.expiresAt as number) > deps.now().getTime());
    },

    createOrder,
    getOrder: async (id: string): Promise<Answer> => {
      const order = await get(db, "order", id);
      return order
        ? { status: 200, body: await presentOrder(db, order as Json & { id: string; _sim: SimState }) }
        : notFound("order_id");
    },
    captureOrder,
    getCapture: async (id: string): Promise<Answer> => {
      const c = await get(db, "capture", id);
      return c ? { status: 200, body: shown(c) } : notFound("capture_id");
    },
    refundCapture: (id: string, input: z.infer<typeof refundBody>, requestId?: string) =>
      refundCapture(id, input, requestId),
    createProduct,
    getProduct: async (id: string): Promise<Answer> => {
      const p = await get(db, "product", id);
      return p ? { status: 200, body: shown(p) } : notFound("product_id");
    },
    createPlan,
    getPlan: async (id: string): Promise<Answer> => {
      const p = await get(db, "plan", id);
      return p ? { status: 200, body: shown(p) } : notFound("plan_id");
    },
    createSubscription,
    getSubscription: async (id: string): Promise<Answer> => {
      const s = await get(db, "subscription", id);
      return s ? { status: 200, body: presentSubscription(s as Json & { id: string }) } : notFound("subscription_id");
    },
    cancelSubscription,

    async listWebhooks(): Promise<Answer> {
      const rows = await db
        .select()
        .from(simulatorRestObjects)
        .where(eq(simulatorRestObjects.kind, "webhook"))
        .orderBy(asc(simulatorRestObjects.createdAt));
      return { status: 200, body: { webhooks: rows.map((r) => r.data) } };
    },
    async createWebhook(input: z.infer<typeof webhookBody>): Promise<Answer> {
      return change(async (tx) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('paypal-simulator-webhooks'))`);
        const same = await tx
          .select({ id: simulatorRestObjects.id })
          .from(simulatorRestObjects)
          .where(
            and(eq(simulatorRestObjects.kind, "webhook"), sql`${simulatorRestObjects.data}->>'url' = ${input.url}`),
          );
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
          links: [{ href: `${base()}/v1/notifications/webhooks/${id}`, rel: "self", method: "GET" }],
        };
        await put(tx, "webhook", id, hook);
        return { status: 201, body: hook };
      });
    },

    /** SUCCESS only for a transmission this simulator made to that webhook id, with its time, signature and event. */
    async verify(input: z.infer<typeof verifyBody>): Promise<Answer> {
      const failure = { status: 200, body: { verification_status: "FAILURE" } };
      const [sent] = await db
        .select()
        .from(simulatorWebhookTransmissions)
        .where(eq(simulatorWebhookTransmissions.id, input.transmission_id));
      if (!sent || sent.webhookId !== input.webhook_id || sent.transmissionTime !== input.transmission_time)
        return failure;
      if (input.auth_algo !== AUTH_ALGO || input.cert_url !== certUrl()) return failure;
      const { publicKey } = await signingKey();
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
    },
    /** The public key webhooks are signed with (what PAYPAL-CERT-URL points at). */
    async certificate(id: string): Promise<string | null> {
      return id === CERT_ID ? (await signingKey()).publicKey : null;
    },
  };
}
export type PayPalRestSimulator = ReturnType<typeof createPayPalRestSimulator>;

/** An outcome's answer, or an error naming PayPal's refusal (the outcomes are called by pages and tests). */
function orThrow(answer: Answer): unknown {
  if (answer.status >= 400) {
    const body = answer.body as { details?: { description: string }[]; message?: string };
    throw new Error(body.details?.[0]?.description ?? body.message ?? `refused (${answer.status})`);
  }
  return answer.body;
}
