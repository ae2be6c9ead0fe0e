import type { BillingCycle, Money } from "../shapes";
import { get, put, save, type Sim } from "./context";
import { emit } from "./events";
import { paypalId, type Json, type SimState, type Tx } from "./model";
import { captureLinks } from "./orders";

type Subscription = Json & { id: string; _sim: SimState };

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

/** The sale PayPal's PAYMENT.SALE.COMPLETED webhook shows for a subscription's payment. */
const saleOf = (sim: Sim, s: Subscription, saleId: string, price: Money) => ({
  id: saleId,
  state: "completed",
  amount: { total: price.value, currency: price.currency_code, details: { subtotal: price.value } },
  payment_mode: "INSTANT_TRANSFER",
  protection_eligibility: "ELIGIBLE",
  transaction_fee: { value: "0.00", currency: price.currency_code },
  billing_agreement_id: s.id,
  ...(s.custom_id ? { custom: s.custom_id } : {}),
  create_time: sim.iso(),
  update_time: sim.iso(),
  links: [{ href: `${sim.base()}/v2/payments/captures/${saleId}/refund`, rel: "refund", method: "POST" }],
});

/** The same payment as a capture, refundable through /v2/payments/captures/{id}/refund like any payment. */
const saleCapture = (sim: Sim, s: Subscription, saleId: string, price: Money) => ({
  id: saleId,
  status: "COMPLETED",
  amount: price,
  final_capture: true,
  ...(s.custom_id ? { custom_id: s.custom_id } : {}),
  create_time: sim.iso(),
  update_time: sim.iso(),
  links: captureLinks(sim, saleId, s.id),
  _sim: { refundedCents: 0, subscriptionId: s.id } as SimState,
});

/** Each cycle's count of payments made and left once payment `n` is taken. */
const executionsOf = (cycles: BillingCycle[], n: number) =>
  cycles.map((c) => {
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

/** The subscription once payment `n` (in `cycle`) is taken: its billing info and count of payments. */
function paidSubscription(sim: Sim, s: Subscription, cycles: BillingCycle[], n: number, cycle: BillingCycle) {
  const price = cycle.pricing_scheme!.fixed_price;
  const executions = executionsOf(cycles, n);
  const next = cycleOf(cycles, n + 1);
  const info = (s.billing_info ?? {}) as Json;
  return {
    ...s,
    status: "ACTIVE",
    update_time: sim.iso(),
    billing_info: {
      outstanding_balance: { currency_code: price.currency_code, value: "0.00" },
      cycle_executions: executions,
      last_payment: { amount: price, time: sim.iso() },
      ...(next
        ? {
            next_billing_time: after(sim.deps.now(), cycle)
              .toISOString()
              .replace(/\.\d{3}Z$/, "Z"),
          }
        : {}),
      failed_payments_count: (info.failed_payments_count as number | undefined) ?? 0,
    },
    _sim: { ...s._sim, payments: n },
  };
}

/** The subscription's next payment taken (a sale, shown as a capture too so it can be refunded), and its webhook. */
export async function takePayment(
  sim: Sim,
  tx: Tx,
  s: Subscription,
): Promise<{ saleId: string; transmissions: string[]; subscription: Json } | null> {
  const plan = (await get(tx, "plan", s.plan_id as string))!;
  const cycles = plan.billing_cycles as BillingCycle[];
  const n = (s._sim.payments ?? 0) + 1;
  const cycle = cycleOf(cycles, n);
  if (!cycle) return null;
  const price = cycle.pricing_scheme!.fixed_price;
  const saleId = paypalId();
  const sale = saleOf(sim, s, saleId, price);
  await put(tx, "capture", saleId, saleCapture(sim, s, saleId, price), s.id);
  const updated = paidSubscription(sim, s, cycles, n, cycle);
  await save(sim, tx, s.id, updated);
  const transmissions = await emit(
    sim,
    tx,
    "PAYMENT.SALE.COMPLETED",
    "sale",
    sale,
    `Payment completed for $ ${price.value} ${price.currency_code}`,
  );
  return { saleId, transmissions, subscription: updated };
}
