import { and, asc, eq } from "drizzle-orm";
import type { z } from "zod";
import { simulatorRestObjects } from "#server/db/schema.ts";
import type { Money } from "../shapes";
import type { createOrderBody } from "./bodies";
import { backTo, get, put, save, shown, type Sim } from "./context";
import { change, idempotent } from "./delivery";
import { notFound, orThrow, unprocessable } from "./errors";
import { emit } from "./events";
import { paypalId, SIMULATOR_APPROVE_ORDER_PATH, type Answer, type Json, type Q, type SimState } from "./model";

// ── Orders and captures ──────────────────────────────────────────────────────────────────────────────────────────
const orderLinks = (sim: Sim, id: string, status: string, approveRel: string) => [
  { href: `${sim.base()}/v2/checkout/orders/${id}`, rel: "self", method: "GET" },
  ...(status === "CREATED" || status === "PAYER_ACTION_REQUIRED"
    ? [{ href: `${sim.publicBase}${SIMULATOR_APPROVE_ORDER_PATH}?token=${id}`, rel: approveRel, method: "GET" }]
    : []),
  ...(status !== "COMPLETED"
    ? [{ href: `${sim.base()}/v2/checkout/orders/${id}/capture`, rel: "capture", method: "POST" }]
    : []),
];

async function presentOrder(sim: Sim, q: Q, order: Json & { id: string; _sim: SimState }) {
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
    links: orderLinks(sim, order.id, order.status as string, order._sim.approveRel ?? "approve"),
  };
}

export function captureLinks(sim: Sim, id: string, orderId: string) {
  return [
    { href: `${sim.base()}/v2/payments/captures/${id}`, rel: "self", method: "GET" },
    { href: `${sim.base()}/v2/payments/captures/${id}/refund`, rel: "refund", method: "POST" },
    { href: `${sim.base()}/v2/checkout/orders/${orderId}`, rel: "up", method: "GET" },
  ];
}

export async function createOrder(sim: Sim, input: z.infer<typeof createOrderBody>, requestId?: string) {
  return idempotent(sim, "orders.create", requestId, async (tx) => {
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
      create_time: sim.iso(),
      update_time: sim.iso(),
      _sim: {
        approveRel: input.payment_source ? "payer-action" : "approve",
        experience: ctx ? { return_url: ctx.return_url, cancel_url: ctx.cancel_url } : undefined,
      } as SimState,
    };
    await put(tx, "order", id, order);
    return { status: 201, body: await presentOrder(sim, tx, order) };
  });
}

export async function getOrder(sim: Sim, id: string): Promise<Answer> {
  const { db } = sim.deps;
  const order = await get(db, "order", id);
  return order
    ? { status: 200, body: await presentOrder(sim, db, order as Json & { id: string; _sim: SimState }) }
    : notFound("order_id");
}

export async function captureOrder(sim: Sim, orderId: string, requestId?: string) {
  return idempotent(sim, `orders.capture.${orderId}`, requestId, async (tx) => {
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
      create_time: sim.iso(),
      update_time: sim.iso(),
      links: captureLinks(sim, captureId, orderId),
      _sim: { refundedCents: 0 } as SimState,
    };
    await put(tx, "capture", captureId, capture, orderId);
    const completed = { ...order, status: "COMPLETED", update_time: sim.iso() };
    await save(sim, tx, orderId, completed);
    const eventType = {
      COMPLETED: "PAYMENT.CAPTURE.COMPLETED",
      PENDING: "PAYMENT.CAPTURE.PENDING",
      DECLINED: "PAYMENT.CAPTURE.DECLINED",
    }[status];
    const transmissions = await emit(
      sim,
      tx,
      eventType,
      "capture",
      capture,
      `Payment ${status.toLowerCase()} for $ ${unit.amount.value} ${unit.amount.currency_code}`,
    );
    return { status: 201, body: await presentOrder(sim, tx, completed), transmissions };
  });
}

/** What the buyer pays with on the approval page: their PayPal account, or a card as a guest. */
const paymentSourceOf = (payer: "paypal" | "card" | undefined) =>
  payer === "card"
    ? { card: { name: "Simulated Guest", last_digits: "1111", brand: "VISA", type: "CREDIT" } }
    : {
        paypal: {
          email_address: "buyer@example.com",
          account_id: "SIMULATEDPAYER",
          account_status: "VERIFIED",
          name: { given_name: "Simulated", surname: "Buyer" },
        },
      };

// ── The approval page's outcomes ─────────────────────────────────────────────────────────────────────────────────
/** The buyer approves an order (with their PayPal account, or by card as a guest); `result` is what the capture will be. */
export async function approveOrder(
  sim: Sim,
  orderId: string,
  how: { payer?: "paypal" | "card"; result?: "completed" | "pending" | "denied" } = {},
) {
  const answer = await change(sim, async (tx) => {
    const order = await get(tx, "order", orderId, true);
    if (!order) return notFound("order_id");
    if (order.status !== "CREATED" && order.status !== "PAYER_ACTION_REQUIRED")
      return unprocessable("ORDER_NOT_APPROVABLE", "This order cannot be approved again.");
    const paymentSource = paymentSourceOf(how.payer);
    const approved = {
      ...order,
      status: "APPROVED",
      payment_source: paymentSource,
      payer: {
        name: { given_name: "Simulated", surname: how.payer === "card" ? "Guest" : "Buyer" },
        email_address: "buyer@example.com",
        payer_id: "SIMULATEDPAYER",
      },
      update_time: sim.iso(),
      _sim: { ...order._sim, result: how.result ?? "completed" },
    };
    await save(sim, tx, orderId, approved);
    const transmissions = await emit(
      sim,
      tx,
      "CHECKOUT.ORDER.APPROVED",
      "checkout-order",
      await presentOrder(sim, tx, approved),
      "An order has been approved by buyer",
    );
    const back = order._sim.experience?.return_url;
    return {
      status: 200,
      body: back ? backTo(back, `token=${orderId}&PayerID=SIMULATEDPAYER`) : null,
      transmissions,
    };
  });
  return orThrow(answer) as string | null;
}

/** The buyer cancels on the approval page: where PayPal sends them back (the order stays unapproved). */
export async function cancelOrder(sim: Sim, orderId: string) {
  const order = await get(sim.deps.db, "order", orderId);
  if (!order) throw new Error(`no simulated order ${orderId}`);
  const back = order._sim.experience?.cancel_url;
  return back ? backTo(back, `token=${orderId}`) : null;
}
