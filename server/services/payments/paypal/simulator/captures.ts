import { sql } from "drizzle-orm";
import type { z } from "zod";
import { simulatorRestObjects } from "#server/db/schema.ts";
import type { Money } from "../shapes";
import type { refundBody } from "./bodies";
import { get, getShown, put, save, type Sim } from "./context";
import { change, idempotent, resendLastEvent } from "./delivery";
import { notFound, orThrow, unprocessable } from "./errors";
import { emit } from "./events";
import { amountCents, centsValue, paypalId, REFUND_DAYS, type Answer, type Json, type Obj } from "./model";

export const getCapture = (sim: Sim, id: string) => getShown(sim, "capture", "capture_id", id);

/** The cents a refund of the capture takes, or PayPal's refusal. */
function refundCents(sim: Sim, capture: Obj, input: z.infer<typeof refundBody>, viaApi: boolean): Answer | number {
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
  const age = sim.deps.now().getTime() - new Date(capture.create_time as string).getTime();
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
  return cents;
}

/** PayPal's refund of `cents` of the capture. */
function refundOf(sim: Sim, capture: Obj, input: z.infer<typeof refundBody>, cents: number) {
  const amount = capture.amount as Money;
  const refunded = capture._sim.refundedCents ?? 0;
  const refundId = paypalId();
  return {
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
    create_time: sim.iso(),
    update_time: sim.iso(),
    links: [
      { href: `${sim.base()}/v2/payments/refunds/${refundId}`, rel: "self", method: "GET" },
      { href: `${sim.base()}/v2/payments/captures/${capture.id}`, rel: "up", method: "GET" },
    ],
  };
}

export async function refundCapture(
  sim: Sim,
  captureId: string,
  input: z.infer<typeof refundBody>,
  requestId?: string,
  viaApi = true,
) {
  return idempotent(sim, `captures.refund.${captureId}`, requestId, async (tx) => {
    const capture = await get(tx, "capture", captureId, true);
    if (!capture) return notFound("capture_id");
    const amount = capture.amount as Money;
    const refunded = capture._sim.refundedCents ?? 0;
    const cents = refundCents(sim, capture, input, viaApi);
    if (typeof cents !== "number") return cents;
    const refund = refundOf(sim, capture, input, cents);
    await put(tx, "refund", refund.id, refund, captureId);
    const total = refunded + cents;
    await save(sim, tx, captureId, {
      ...capture,
      status: total >= amountCents(amount) ? "REFUNDED" : "PARTIALLY_REFUNDED",
      update_time: sim.iso(),
      _sim: { ...capture._sim, refundedCents: total },
    });
    const transmissions = await emit(
      sim,
      tx,
      "PAYMENT.CAPTURE.REFUNDED",
      "refund",
      refund,
      `A $ ${refund.amount.value} ${amount.currency_code} capture payment was refunded`,
    );
    return { status: 201, body: refund, transmissions };
  });
}

// ── What PayPal does later to a capture ──────────────────────────────────────────────────────────────────────────
/** A pending capture clears (COMPLETED) or is denied (DENIED), with PayPal's webhook. */
export async function settleCapture(sim: Sim, captureId: string, to: "COMPLETED" | "DENIED") {
  return orThrow(
    await change(sim, async (tx) => {
      const capture = await get(tx, "capture", captureId, true);
      if (!capture || capture.status !== "PENDING")
        return unprocessable("CAPTURE_NOT_PENDING", "Only a pending capture settles.");
      const settled = { ...capture, status: to, update_time: sim.iso() };
      delete (settled as Json).status_details;
      await save(sim, tx, captureId, settled);
      const transmissions = await emit(
        sim,
        tx,
        `PAYMENT.CAPTURE.${to}`,
        "capture",
        settled,
        `Payment ${to.toLowerCase()}`,
      );
      return { status: 200, body: null, transmissions };
    }),
  );
}

/** Staff refund in PayPal's own dashboard (no time limit applied here): the webhook is all this site hears. */
export async function refundInPayPal(sim: Sim, captureId: string, amount?: Money) {
  return orThrow(await refundCapture(sim, captureId, amount ? { amount } : {}, undefined, false)) as Json;
}

/** The buyer's bank or a lost dispute takes the money back. */
export async function reverseCapture(sim: Sim, captureId: string) {
  return orThrow(
    await change(sim, async (tx) => {
      const capture = await get(tx, "capture", captureId, true);
      if (!capture || (capture.status !== "COMPLETED" && capture.status !== "PARTIALLY_REFUNDED"))
        return unprocessable("TRANSACTION_REFUSED", "Only a completed capture can be reversed.");
      const amount = capture.amount as Money;
      const left = amountCents(amount) - (capture._sim.refundedCents ?? 0);
      const reversed = { ...capture, status: "REVERSED", update_time: sim.iso() };
      await save(sim, tx, captureId, reversed);
      const refundId = paypalId();
      const resource = {
        id: refundId,
        status: "COMPLETED",
        amount: { currency_code: amount.currency_code, value: centsValue(left) },
        ...(capture.invoice_id ? { invoice_id: capture.invoice_id } : {}),
        ...(capture.custom_id ? { custom_id: capture.custom_id } : {}),
        note_to_payer: "Payment reversed",
        create_time: sim.iso(),
        update_time: sim.iso(),
        links: [{ href: `${sim.base()}/v2/payments/captures/${captureId}`, rel: "up", method: "GET" }],
      };
      await put(tx, "refund", refundId, resource, captureId);
      const transmissions = await emit(
        sim,
        tx,
        "PAYMENT.CAPTURE.REVERSED",
        "refund",
        resource,
        "A payment was reversed",
      );
      return { status: 200, body: null, transmissions };
    }),
  );
}

/** PayPal sends the last webhook about a capture (completed, pending, denied, refunded …) again; null when none. */
export async function resendLastCaptureEvent(sim: Sim, captureId: string) {
  return resendLastEvent(
    sim,
    sql`${simulatorRestObjects.data}->>'event_type' like 'PAYMENT.CAPTURE.%'`,
    sql`(${simulatorRestObjects.data}->'resource'->>'id' = ${captureId} or ${simulatorRestObjects.data}->'resource'->'links' @> ${JSON.stringify([{ rel: "up", href: `${sim.base()}/v2/payments/captures/${captureId}` }])}::jsonb)`,
  );
}
