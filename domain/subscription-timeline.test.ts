import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { DAY_MS, membershipTimeline, type TimelineOrder } from "./membership";
import { applyOrderEvent, type OrderState } from "./order-lifecycle";
import { decideSubscriptionPayment, nextSubscriptionStatus, type SubscriptionStatus } from "./subscription";

/**
 * Beside the timeline's properties (membership-timeline.test.ts): random interleavings of one subscription's notices,
 * PayPal's retries and replays, applied by the listener's rules (decideSubscriptionPayment, nextSubscriptionStatus,
 * applyOrderEvent) and laid by the timeline, give the days paid for, never more. The same through the real listener and
 * database: tests/integration/subscriptions.test.ts.
 */
const RUNS = Number(process.env.FC_RUNS ?? 2_000);
const START = Date.UTC(2026, 0, 1);

type Step =
  | { kind: "signup" | "cancel" | "failed" | "end"; after: number }
  | { kind: "pay" | "replay"; k: number; after: number };

const after = fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 40 * DAY_MS }));
const stepArb: fc.Arbitrary<Step> = fc.oneof(
  fc.record({ kind: fc.constantFrom("signup" as const, "cancel" as const, "failed" as const, "end" as const), after }),
  fc.record({ kind: fc.constantFrom("pay" as const, "replay" as const), k: fc.integer({ min: 0, max: 6 }), after }),
);

describe("subscription notices through the timeline", () => {
  it("give validity × distinct payments taken before the cancellation, never more, without overlap", () => {
    fc.assert(
      fc.property(fc.constantFrom(1, 7, 30, 90, 365), fc.array(stepArb, { maxLength: 30 }), (validity, steps) => {
        let t = START;
        let status: SubscriptionStatus | null = null;
        const first: TimelineOrder & OrderState = {
          id: "first",
          paymentStatus: "UnPaid",
          orderStatus: "Delivered",
          packageValidity: validity,
          paidAt: null,
          deliveredAt: new Date(START),
          createdAt: new Date(START),
          txnId: null,
        };
        const orders: (TimelineOrder & OrderState)[] = [first];
        const sent = new Set<number>();
        let accepted = 0;
        for (const s of steps) {
          t += s.after;
          if (s.kind === "pay" || s.kind === "replay") {
            if (s.kind === "replay" && !sent.has(s.k)) continue;
            sent.add(s.k);
            const txnId = `T${s.k}`;
            const d = decideSubscriptionPayment({
              subscription: status ? { orderId: "first", status } : null,
              order: first,
              txnApplied: orders.some((o) => o.txnId === txnId),
            });
            if (d.kind === "duplicate" || d.kind === "refuse") continue;
            status = nextSubscriptionStatus(status, "payment");
            accepted++;
            if (d.kind === "pay-order") {
              const r = applyOrderEvent(first, { type: "pay", at: new Date(t), txnId });
              if (r.kind === "changed") Object.assign(first, r.state);
            } else
              orders.push({
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
        for (let i = 1; i < windows.length; i++)
          expect(windows[i]!.starts.getTime()).toBeGreaterThanOrEqual(windows[i - 1]!.ends.getTime());
      }),
      { numRuns: RUNS },
    );
  });
});
