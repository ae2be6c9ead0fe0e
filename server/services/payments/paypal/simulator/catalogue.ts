import type { z } from "zod";
import type { planBody, productBody } from "./bodies";
import { get, getShown, put, type Sim } from "./context";
import { idempotent } from "./delivery";
import { notFound, unprocessable } from "./errors";
import { paypalId } from "./model";

// ── Catalogue and plans ──────────────────────────────────────────────────────────────────────────────────────────
export async function createProduct(sim: Sim, input: z.infer<typeof productBody>, requestId?: string) {
  return idempotent(sim, "products.create", requestId, async (tx) => {
    const id = paypalId("PROD-", 17);
    const product = {
      id,
      ...input,
      create_time: sim.iso(),
      update_time: sim.iso(),
      links: [{ href: `${sim.base()}/v1/catalogs/products/${id}`, rel: "self", method: "GET" }],
    };
    await put(tx, "product", id, product);
    return { status: 201, body: product };
  });
}

export const getProduct = (sim: Sim, id: string) => getShown(sim, "product", "product_id", id);

export async function createPlan(sim: Sim, input: z.infer<typeof planBody>, requestId?: string) {
  return idempotent(sim, "plans.create", requestId, async (tx) => {
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
      create_time: sim.iso(),
      update_time: sim.iso(),
      links: [{ href: `${sim.base()}/v1/billing/plans/${id}`, rel: "self", method: "GET" }],
    };
    await put(tx, "plan", id, plan, input.product_id);
    return { status: 201, body: plan };
  });
}

export const getPlan = (sim: Sim, id: string) => getShown(sim, "plan", "plan_id", id);
