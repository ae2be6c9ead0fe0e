import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DAY_MS, membershipTimeline, type TimelineOrder } from "./membership";
import { applyOrderEvent, type OrderState } from "./order-lifecycle";
import { decideSubscriptionPayment, nextSubscriptionStatus, type SubscriptionStatus } from "./subscription";
import { paymentDue, renewalPrice, subscriptionTerms, type PricedOrder } from "./subscription-price";

/**
 * Beside the timeline's properties (membership-timeline.test.ts): random interleavings of one subscription's notices,
 * PayPal's retries and replays, applied by the listener's rules (decideSubscriptionPayment, nextSubscriptionStatus,
 * applyOrderEvent) and laid by the timeline, give the days paid for, never more. The same through the real listener and
 * database: tests/integration/subscriptions.test.ts.
 */
const RUNS = Number(process.env.FC_RUNS ?? 2_000);
const START = Date.UTC(2026, 0, 1);

/** A payment's amount: what is due now, the first (introductory) price, the regular price, or another one (forged). */
type Amount = "due" | "intro" | "regular" | "other";
type Step =
  | { kind: "signup" | "cancel" | "failed" | "end"; after: number }
  | { kind: "pay" | "replay"; k: number; after: number; amount: Amount };

const after = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40 * DAY_MS }));
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom("signup" as const, "cancel" as const, "failed" as const, "end" as const), after }),
  fc.record({
    kind: fc.constantFrom("pay" as const, "replay" as const),
    k: fc.integer({ min: 0, max: 6 }),
    after,
    amount: fc.constantFrom<Amount>("due", "due", "due", "intro", "regular", "other"),
  }),
);
/** The subscribed order's price: no code, a code on the first period only (PayPal's introductory period), or on every one. */
const pricedArb: fc.Arbitrary<PricedOrder> = fc
  .record({
    before: fc.integer({ min: 100, max: 100_000 }),
    off: fc.integer({ min: 1, max: 99 }),
    period: fc.constantFrom("none" as const, "first" as const, "every" as const),
  })
  .map(({ before, off, period }) => {
    const cut = Math.max(1, Math.floor((before * off) / 100));
    return period === "none"
      ? { packagePrice: before / 100, priceBefore: null, discountAmount: 0, discountPeriod: null }
      : {
          packagePrice: (before - cut) / 100,
          priceBefore: before / 100,
          discountAmount: cut / 100,
          discountPeriod: period,
        };
  });

describe("subscription notices through the timeline", () => {
  it("give validity × distinct payments taken before the cancellation, never more, without overlap", () => {
    fc.assert(
      fc.property(
        fc.constantFrom(1, 7, 30, 90, 365),
        pricedArb,
        fc.array(stepArb, { maxLength: 30 }),
        (validity, priced, steps) => {
          const terms = subscriptionTerms(priced);
          let t = START;
          let status: SubscriptionStatus | null = null;
          const first: TimelineOrder & OrderState & { price: number } = {
            price: priced.packagePrice,
            id: "first",
            paymentStatus: "UnPaid",
            orderStatus: "Delivered",
            packageValidity: validity,
            paidAt: null,
            deliveredAt: new Date(START),
            createdAt: new Date(START),
            txnId: null,
          };
          const orders: (TimelineOrder & OrderState & { price: number })[] = [first];
          const sent = new Map<number, number>();
          let accepted = 0;
          let taken = 0;
          // An oracle written apart from the listener's rules: a payment k counts once, when it comes with the amount
          // due and no cancellation or end of term came before it.
          const oracle = { paid: new Set<number>(), stopped: false };
          for (const s of steps) {
            t += s.after;
            if (s.kind === "cancel" || s.kind === "end") oracle.stopped = true;
            if ((s.kind === "pay" || s.kind === "replay") && !(s.kind === "replay" && !sent.has(s.k))) {
              const due = oracle.paid.size === 0 ? paymentDue(terms, 1) : paymentDue(terms, 2);
              const amount =
                sent.get(s.k) ??
                { due, intro: paymentDue(terms, 1), regular: paymentDue(terms, 2), other: due + 0.01 }[s.amount];
              if (!oracle.stopped && Math.round(amount * 100) === Math.round(due * 100)) oracle.paid.add(s.k);
            }
            if (s.kind === "pay" || s.kind === "replay") {
              if (s.kind === "replay" && !sent.has(s.k)) continue;
              // The listener's amount check: payment 1 pays the placed order, any later one is a renewal.
              const due = paymentDue(terms, first.paymentStatus === "UnPaid" ? 1 : 2);
              const amount =
                sent.get(s.k) ??
                { due, intro: paymentDue(terms, 1), regular: paymentDue(terms, 2), other: due + 0.01 }[s.amount];
              sent.set(s.k, amount);
              if (Math.round(amount * 100) !== Math.round(due * 100)) continue;
              const txnId = `T${s.k}`;
              const d = decideSubscriptionPayment({
                subscription: status ? { orderId: "first", status } : null,
                order: first,
                txnApplied: orders.some((o) => o.txnId === txnId),
              });
              if (d.kind === "duplicate" || d.kind === "refuse") continue;
              status = nextSubscriptionStatus(status, "payment");
              accepted++;
              taken += Math.round(amount * 100);
              if (d.kind === "pay-order") {
                const r = applyOrderEvent(first, { type: "pay", at: new Date(t), txnId });
                if (r.kind === "changed") Object.assign(first, r.state);
              } else
                orders.push({
                  price: renewalPrice(priced).packagePrice,
                  id: `r${orders.length}`,
                  paymentStatus: "Paid",
                  orderStatus: "Delivered",
                  packageValidity: validity,
                  paidAt: new Date(t),
                  deliveredAt: new Date(t),
                  createdAt: new Date(t),
                  txnId,
                });
            } else status = nextSubscriptionStatus(status, s.kind);
          }
          const windows = membershipTimeline(orders);
          const days = windows.reduce((n, w) => n + (w.ends.getTime() - w.starts.getTime()) / DAY_MS, 0);
          const paidTxns = new Set(orders.map((o) => o.txnId).filter(Boolean));
          expect(paidTxns.size).toBe(accepted);
          expect(accepted).toBeLessThanOrEqual(sent.size);
          expect(days).toBe(validity * accepted);
          expect(accepted).toBe(oracle.paid.size);
          // The money: what PayPal was told (a1 once, then a3), taken once per accepted payment, each order's price.
          const cents = (n: number) => Math.round(n * 100);
          const paidOrders = orders.filter((o) => o.paymentStatus === "Paid");
          expect(paidOrders.reduce((n, o) => n + cents(o.price), 0)).toBe(taken);
          expect(taken).toBe(accepted ? cents(paymentDue(terms, 1)) + (accepted - 1) * cents(paymentDue(terms, 2)) : 0);
          for (let i = 1; i < windows.length; i++)
            expect(windows[i]!.starts.getTime()).toBeGreaterThanOrEqual(windows[i - 1]!.ends.getTime());
        },
      ),
      { numRuns: RUNS },
    );
  });
});
