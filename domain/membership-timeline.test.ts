import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  activationOf,
  countsForMembership,
  DAY_MS,
  membershipOf,
  membershipTimeline,
  type MembershipWindow,
  type TimelineOrder,
} from "./membership";
import { applyOrderEvent, type EventType, type OrderEvent, type OrderState } from "./order-lifecycle";

/** How many random sequences each property runs (FC_RUNS raises it for a long run). */
const RUNS = Number(process.env.FC_RUNS ?? 2_000);
const START = Date.UTC(2026, 0, 1);

/** One step of a customer's history: place an order, or an event on one of the orders placed so far. */
type Step =
  | { kind: "place"; validity: number; after: number }
  | { kind: "event"; type: EventType; order: number; after: number; repeat: boolean };

const stepArb: fc.Arbitrary<Step> = fc.oneof(
  {
    weight: 1,
    arbitrary: fc.record({
      kind: fc.constant("place" as const),
      validity: fc.constantFrom(1, 7, 30, 90, 365),
      // Often no time between two steps: ties between orders are where ordering bugs hide.
      after: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 * DAY_MS })),
    }),
  },
  {
    weight: 4,
    arbitrary: fc.record({
      kind: fc.constant("event" as const),
      type: fc.constantFrom<EventType>("pay", "deliver", "undeliver", "cancel", "refund", "reverse", "unpay"),
      order: fc.nat(),
      after: fc.oneof(fc.constant(0), fc.integer({ min: 0, max: 60 * DAY_MS })),
      repeat: fc.boolean(),
    }),
  },
);

interface Replayed {
  orders: (TimelineOrder & OrderState)[];
  now: Date;
  refused: number;
}

/** Plays the steps through the lifecycle's rules (a refused event changes nothing), as the order commands do. */
function replay(steps: readonly Step[], repeatEvents = true): Replayed {
  const orders: (TimelineOrder & OrderState)[] = [];
  let t = START;
  let refused = 0;
  for (const step of steps) {
    t += step.after;
    const at = new Date(t);
    if (step.kind === "place") {
      orders.push({
        id: `o${String(orders.length).padStart(3, "0")}`,
        packageValidity: step.validity,
        paymentStatus: "UnPaid",
        orderStatus: "Pending",
        paidAt: null,
        deliveredAt: null,
        txnId: null,
        createdAt: at,
      });
      continue;
    }
    if (orders.length === 0) continue;
    const i = step.order % orders.length;
    const event = { type: step.type, at } as OrderEvent;
    const times = repeatEvents && step.repeat ? 2 : 1;
    for (let k = 0; k < times; k++) {
      const r = applyOrderEvent(orders[i]!, event);
      if (r.kind === "refused") refused++;
      else orders[i] = { ...orders[i]!, ...r.state };
    }
  }
  return { orders, now: new Date(t), refused };
}

const length = (w: MembershipWindow) => w.ends.getTime() - w.starts.getTime();

describe("the membership timeline over random histories", () => {
  const histories = fc.array(stepArb, { minLength: 1, maxLength: 40 });

  it("grants exactly the days of the orders that count, in windows that never overlap", () => {
    fc.assert(
      fc.property(histories, (steps) => {
        const { orders, now } = replay(steps);
        const windows = membershipTimeline(orders);
        const counted = orders.filter(countsForMembership);
        // Days granted = the sum of the validities of the orders that count (Paid and Delivered).
        expect(windows.reduce((sum, w) => sum + length(w), 0)).toBe(
          counted.reduce((sum, o) => sum + o.packageValidity * DAY_MS, 0),
        );
        // One window per counting order, each exactly its validity, none for any other order.
        expect(new Set(windows.map((w) => w.orderId))).toEqual(new Set(counted.map((o) => o.id)));
        for (const w of windows) {
          const o = orders.find((x) => x.id === w.orderId)!;
          expect(length(w)).toBe(o.packageValidity * DAY_MS);
          // A window never starts before its order was both paid and delivered, and starts then unless another window
          // was still running: then exactly when that one ends (no day is lost to a gap the customer did not have).
          expect(w.starts.getTime()).toBeGreaterThanOrEqual(activationOf(o).getTime());
          expect(w.starts.getTime()).toBeLessThanOrEqual(
            now.getTime() + windows.reduce((sum, x) => sum + length(x), 0),
          );
          if (w.starts.getTime() !== activationOf(o).getTime())
            expect(windows.some((x) => x.ends.getTime() === w.starts.getTime())).toBe(true);
        }
        // Never overlapping: in start order, each starts at or after the end of the one before.
        const sorted = [...windows].sort((a, b) => a.starts.getTime() - b.starts.getTime());
        for (let i = 1; i < sorted.length; i++)
          expect(sorted[i]!.starts.getTime()).toBeGreaterThanOrEqual(sorted[i - 1]!.ends.getTime());
      }),
      { numRuns: RUNS },
    );
  });

  it("gives a refunded, reversed, cancelled, unpaid or undelivered order no day", () => {
    fc.assert(
      fc.property(histories, (steps) => {
        const { orders } = replay(steps);
        const windowed = new Set(membershipTimeline(orders).map((w) => w.orderId));
        for (const o of orders)
          if (o.paymentStatus !== "Paid" || o.orderStatus !== "Delivered") expect(windowed.has(o.id)).toBe(false);
      }),
      { numRuns: RUNS },
    );
  });

  it("is the same when the same events are replayed, and a repeated event changes nothing", () => {
    fc.assert(
      fc.property(histories, (steps) => {
        const once = replay(steps, false);
        const twice = replay(steps, true);
        expect(membershipTimeline(twice.orders)).toEqual(membershipTimeline(once.orders));
        expect(membershipTimeline(replay(steps).orders)).toEqual(membershipTimeline(replay(steps).orders));
        // Whatever order the orders are read in (a query's row order is not a rule).
        expect(membershipTimeline([...once.orders].reverse())).toEqual(membershipTimeline(once.orders));
      }),
      { numRuns: RUNS },
    );
  });

  it("a refund removes exactly its order's days; every other window keeps its length and can only move earlier", () => {
    fc.assert(
      fc.property(histories, fc.nat(), fc.integer({ min: 0, max: 30 * DAY_MS }), (steps, pick, later) => {
        const { orders, now } = replay(steps);
        const counted = orders.filter(countsForMembership);
        fc.pre(counted.length > 0);
        const target = counted[pick % counted.length]!;
        const at = new Date(now.getTime() + later);
        const r = applyOrderEvent(target, { type: "refund", at });
        expect(r.kind).toBe("changed");
        const after = orders.map((o) => (o.id === target.id && r.kind === "changed" ? { ...o, ...r.state } : o));
        const before = membershipTimeline(orders);
        const windows = membershipTimeline(after);
        expect(windows.find((w) => w.orderId === target.id)).toBeUndefined();
        // Exactly its validity fewer days granted.
        const total = (ws: MembershipWindow[]) => ws.reduce((sum, w) => sum + length(w), 0);
        expect(total(before) - total(windows)).toBe(target.packageValidity * DAY_MS);
        // Every other window keeps its length and can only move earlier.
        for (const w of windows) {
          const old = before.find((b) => b.orderId === w.orderId)!;
          expect(length(w)).toBe(length(old));
          expect(w.starts.getTime()).toBeLessThanOrEqual(old.starts.getTime());
        }
      }),
      { numRuns: RUNS },
    );
  });

  it("the membership the dashboard shows is read from the same windows: active exactly while one holds now", () => {
    fc.assert(
      // From the last change on (the stored windows are those of the last change: every change recomputes them).
      fc.property(histories, fc.integer({ min: 0, max: 800 * DAY_MS }), (steps, offset) => {
        const { orders, now } = replay(steps);
        const windows = new Map(membershipTimeline(orders).map((w) => [w.orderId, w]));
        const at = new Date(now.getTime() + offset);
        const stored = orders.map((o) => ({
          packageName: `P${o.packageValidity}`,
          paymentStatus: o.paymentStatus,
          orderStatus: o.orderStatus,
          membershipStarts: windows.get(o.id)?.starts ?? null,
          membershipValid: windows.get(o.id)?.ends ?? null,
        }));
        const holding = [...windows.values()].some((w) => w.starts <= at && at < w.ends);
        const m = membershipOf(stored, at);
        expect(m.state === "active").toBe(holding);
        if (m.state === "active") {
          // Shown until the end of the last window: the windows after the current one follow it without a gap.
          const last = Math.max(...[...windows.values()].map((w) => w.ends.getTime()));
          expect(m.expiresAt.getTime()).toBe(last);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

describe("the refund that left paid days granted (reproduced on main before the timeline)", () => {
  it("Premium paid, Standard paid and delivered, Premium refunded: Standard gives 30 days from its activation", () => {
    const t0 = new Date("2026-11-25T10:00:00Z");
    const at = (minutes: number) => new Date(t0.getTime() + minutes * 60_000);
    const base = { orderStatus: "Pending", paymentStatus: "UnPaid", paidAt: null, deliveredAt: null } as const;
    const premium: TimelineOrder = { ...base, id: "premium", packageValidity: 30, createdAt: at(0) };
    const standard: TimelineOrder = { ...base, id: "standard", packageValidity: 30, createdAt: at(1) };
    // Premium is paid, not delivered; Standard is paid and delivered.
    const paidPremium = { ...premium, paymentStatus: "Paid", paidAt: at(2) } as const;
    const live = {
      ...standard,
      paymentStatus: "Paid",
      paidAt: at(3),
      orderStatus: "Delivered",
      deliveredAt: at(4),
    } as const;
    // An undelivered Premium no longer pushes Standard out: Standard runs 30 days from its delivery.
    expect(membershipTimeline([paidPremium, live])).toEqual([
      { orderId: "standard", starts: at(4), ends: new Date(at(4).getTime() + 30 * DAY_MS) },
    ]);
    // Premium refunded: Standard still 30 days, never 60.
    const refunded = { ...paidPremium, paymentStatus: "Refunded" } as const;
    const windows = membershipTimeline([refunded, live]);
    expect(windows).toEqual([{ orderId: "standard", starts: at(4), ends: new Date(at(4).getTime() + 30 * DAY_MS) }]);
    // Had Premium been delivered first, Standard would follow it, and refunding Premium would pull Standard back.
    const deliveredPremium = { ...paidPremium, orderStatus: "Delivered", deliveredAt: at(2) } as const;
    expect(membershipTimeline([deliveredPremium, live]).map((w) => w.ends)).toEqual([
      new Date(at(2).getTime() + 30 * DAY_MS),
      new Date(at(2).getTime() + 60 * DAY_MS),
    ]);
    expect(membershipTimeline([{ ...deliveredPremium, paymentStatus: "Refunded" }, live])).toEqual(windows);
  });
});
