import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  addDays,
  assemble,
  bucketLabel,
  bucketsOf,
  churnRate,
  dayFacts,
  daysBetween,
  monthsOf,
  parsePeriod,
  RENEWAL_GRACE_DAYS,
  type BucketTotals,
  type Period,
  type ReportOrder,
} from "./reports";

/** How many random cases each property runs (FC_RUNS raises it for a long run). */
const RUNS = Number(process.env.FC_RUNS ?? 1_000);
const TODAY = "2026-11-25";

describe("parsePeriod", () => {
  it("is the last 12 months (this one and the 11 before) when nothing is asked", () => {
    expect(parsePeriod({}, TODAY)).toEqual({
      ok: true,
      data: { from: "2025-12-01", to: TODAY, unit: "month", preset: "last-12-months" },
    });
  });

  it("reads the presets", () => {
    expect(parsePeriod({ period: "this-month" }, TODAY)).toEqual({
      ok: true,
      data: { from: "2026-11-01", to: TODAY, unit: "day", preset: "this-month" },
    });
    expect(parsePeriod({ period: "this-month" }, "2026-03-01")).toMatchObject({
      data: { from: "2026-03-01", to: "2026-03-01" },
    });
    expect(parsePeriod({ period: "last-12-months" }, "2026-01-31")).toMatchObject({
      data: { from: "2025-02-01", to: "2026-01-31" },
    });
  });

  it("takes custom days, day by day up to 62 days and by month beyond, and ends a period in the future today", () => {
    expect(parsePeriod({ from: "2026-01-01", to: "2026-03-03" }, TODAY)).toEqual({
      ok: true,
      data: { from: "2026-01-01", to: "2026-03-03", unit: "day" },
    });
    expect(parsePeriod({ from: "2026-01-01", to: "2026-03-04" }, TODAY)).toMatchObject({ data: { unit: "month" } });
    expect(parsePeriod({ from: "2026-11-01", to: "2026-12-31" }, TODAY)).toMatchObject({
      data: { from: "2026-11-01", to: TODAY, unit: "day" },
    });
  });

  it("names each bad input", () => {
    const errors = (input: object) => {
      const r = parsePeriod(input, TODAY);
      return r.ok ? [] : r.errors;
    };
    expect(errors({ period: "yesterday" })).toEqual([
      { field: "period", message: "Period must be this-month or last-12-months, or give From and To dates" },
    ]);
    expect(errors({ from: "2026-01-01" })).toEqual([{ field: "to", message: "To is required" }]);
    expect(errors({ to: "2026-01-01" })).toEqual([{ field: "from", message: "From is required" }]);
    expect(errors({ from: "01/02/2026", to: "2026-02-30" })).toEqual([
      { field: "from", message: "From must be a date (YYYY-MM-DD)" },
      { field: "to", message: "To must be a real date" },
    ]);
    expect(errors({ from: "2026-03-01", to: "2026-02-01" })).toEqual([
      { field: "to", message: "To must be on or after From" },
    ]);
    expect(errors({ from: "2020-01-01", to: "2025-01-01" })).toEqual([
      { field: "to", message: "A period can be at most 5 years long" },
    ]);
    expect(errors({ from: "2020-01-01", to: "2024-12-31" })).toEqual([]);
    expect(errors({ from: "2026-12-01", to: "2026-12-31" })).toEqual([
      { field: "from", message: "From must be today or earlier" },
    ]);
    expect(errors({ from: ["2026-01-01"], to: { x: 1 } })).toHaveLength(2);
  });
});

/** Any day from 2000 to 2039. */
const anyDay = fc.integer({ min: 0, max: 40 * 365 }).map((n) => addDays("2000-01-01", n));

describe("bucketsOf", () => {
  it("cuts any period into days or months that cover it exactly, in order, with no day twice", () => {
    fc.assert(
      fc.property(anyDay, fc.integer({ min: 0, max: 5 * 365 }), (from, length) => {
        const to = addDays(from, length);
        const r = parsePeriod({ from, to }, "2045-01-01");
        expect(r.ok).toBe(true);
        if (!r.ok) return;
        const buckets = bucketsOf(r.data);
        expect(buckets[0]!.start).toBe(from);
        expect(buckets.at(-1)!.end).toBe(to);
        buckets.forEach((b, i) => {
          expect(b.start <= b.end).toBe(true);
          if (i > 0) expect(b.start).toBe(addDays(buckets[i - 1]!.end, 1));
          if (r.data.unit === "month") {
            expect(b.key.endsWith("-01")).toBe(true);
            expect(b.start.slice(0, 7)).toBe(b.key.slice(0, 7));
            expect(b.end.slice(0, 7)).toBe(b.key.slice(0, 7));
          } else expect(b.start).toBe(b.end);
        });
        const days = buckets.reduce((n, b) => n + daysBetween(b.start, b.end) + 1, 0);
        expect(days).toBe(length + 1);
        expect(monthsOf(r.data).length).toBe(new Set(buckets.map((b) => b.key.slice(0, 7))).size);
      }),
      { numRuns: RUNS },
    );
  });

  it("labels days and months", () => {
    expect(bucketLabel("2026-11-03", "day", "axis")).toBe("Nov 3");
    expect(bucketLabel("2026-11-03", "day", "table")).toBe("Nov 3, 2026");
    expect(bucketLabel("2026-11-01", "month", "axis")).toBe("Nov");
    expect(bucketLabel("2026-11-01", "month", "table")).toBe("Nov 2026");
  });
});

describe("assemble", () => {
  const period: Period = { from: "2026-01-15", to: "2026-03-10", unit: "month" };
  const t = (x: Partial<BucketTotals>): BucketTotals => ({
    revenue: 0,
    paidOrders: 0,
    givenOrders: 0,
    firstOrders: 0,
    subscriptionRenewals: 0,
    subscriptionRevenue: 0,
    discountedOrders: 0,
    discounts: 0,
    net: 0,
    ended: 0,
    renewed: 0,
    waiting: 0,
    ...x,
  });

  it("adds the members up from those active before, counts renewals and the decided ends", () => {
    const r = assemble(
      period,
      new Map([
        ["2026-01-01", t({ revenue: 58, paidOrders: 2, firstOrders: 1, net: 2, ended: 1, renewed: 1 })],
        ["2026-03-01", t({ revenue: 99.1, paidOrders: 1, givenOrders: 1, net: -3, ended: 4, renewed: 1, waiting: 2 })],
      ]),
      5,
      new Map([
        ["2026-01-01", { revenue: 87, payers: 2 }],
        ["2026-03-01", { revenue: 99.1, payers: 1 }],
      ]),
    );
    expect(r.rows.map((x) => [x.key, x.start, x.end, x.activeMembers, x.renewals, x.notRenewed])).toEqual([
      ["2026-01-01", "2026-01-15", "2026-01-31", 7, 1, 0],
      ["2026-02-01", "2026-02-01", "2026-02-28", 7, 0, 0],
      ["2026-03-01", "2026-03-01", "2026-03-10", 4, 1, 1],
    ]);
    expect(r.rows.map((x) => x.churnRate)).toEqual([0, null, 0.5]);
    expect(r.months.map((m) => m.perPayer)).toEqual([43.5, null, 99.1]);
    expect(r.totals).toMatchObject({
      revenue: 157.1,
      paidOrders: 3,
      givenOrders: 1,
      newCustomers: 1,
      renewals: 2,
      ended: 5,
      renewed: 2,
      notRenewed: 1,
      waiting: 2,
      activeAtStart: 5,
      activeAtEnd: 4,
      revenuePerPayer: 62.03,
    });
    expect(r.totals.churnRate).toBeCloseTo(1 / 3);
  });

  it("counts a subscription's automatic payments apart from orders placed by hand (issue 27)", () => {
    const r = assemble(
      period,
      new Map([
        ["2026-01-01", t({ revenue: 87, paidOrders: 3, subscriptionRenewals: 2, subscriptionRevenue: 58 })],
        ["2026-02-01", t({ revenue: 29.5, paidOrders: 1, givenOrders: 1 })],
      ]),
      0,
      new Map(),
    );
    expect(r.rows.map((x) => [x.subscriptionRenewals, x.subscriptionRevenue, x.manualOrders, x.manualRevenue])).toEqual(
      [
        [2, 58, 1, 29],
        [0, 0, 1, 29.5],
        [0, 0, 0, 0],
      ],
    );
    expect(r.totals).toMatchObject({
      paidOrders: 4,
      subscriptionRenewals: 2,
      subscriptionRevenue: 58,
      manualOrders: 2,
      manualRevenue: 58.5,
    });
  });

  it("gives the discounts of orders that used a code beside the revenue, by bucket and in all (issue 27)", () => {
    const r = assemble(
      period,
      new Map([
        ["2026-01-01", t({ revenue: 43.5, paidOrders: 2, discountedOrders: 1, discounts: 14.5 })],
        ["2026-03-01", t({ revenue: 50, paidOrders: 1, discountedOrders: 1, discounts: 9.1 })],
      ]),
      0,
      new Map(),
    );
    expect(r.rows.map((x) => [x.key, x.revenue, x.discountedOrders, x.discounts])).toEqual([
      ["2026-01-01", 43.5, 1, 14.5],
      ["2026-02-01", 0, 0, 0],
      ["2026-03-01", 50, 1, 9.1],
    ]);
    expect(r.totals).toMatchObject({ revenue: 93.5, paidOrders: 3, discountedOrders: 2, discounts: 23.6 });
  });

  it("has no churn rate until an end is decided", () => {
    expect(churnRate(0, 0)).toBeNull();
    expect(churnRate(3, 1)).toBe(0.25);
  });
});

// ── The per-customer rules (the reference the database's tallies are held to in tests/integration/reports.test.ts)

const DAY = 86_400_000;
const T0 = Date.parse("2026-01-01T12:00:00Z");
const dayOf = (ms: number) => new Date(ms).toISOString().slice(0, 10);

/** A customer's history as the timeline lays it: windows end to end or with gaps, some orders unpaid or given. */
const history = (userId: string) =>
  fc
    .array(
      fc.record({
        gap: fc.integer({ min: 0, max: 60 }),
        length: fc.constantFrom(30, 90),
        price: fc.constantFrom(0, 29, 59),
        /** What a discount code took off, in cents (an order with a price only: a code is never worth it all). */
        off: fc.option(fc.integer({ min: 1, max: 5_000 }), { nil: undefined }),
        paid: fc.boolean(),
        windowed: fc.boolean(),
      }),
      { maxLength: 6 },
    )
    .map((steps) => {
      let at = T0;
      return steps.map((s, i): ReportOrder => {
        const starts = at + s.gap * DAY;
        const valid = starts + s.length * DAY;
        const withWindow = s.paid && s.windowed;
        if (withWindow) at = valid;
        return {
          id: `${userId}-${i}`,
          userId,
          paid: s.paid,
          price: s.price,
          priceBefore: s.off !== undefined && s.price > 0 ? (s.price * 100 + s.off) / 100 : undefined,
          paidDay: dayOf(starts),
          paidAt: starts,
          createdAt: starts,
          window: withWindow ? { starts, valid, startDay: dayOf(starts), endDay: dayOf(valid) } : undefined,
        };
      });
    });

describe("dayFacts", () => {
  it("counts a subscription's later payment apart, on the day it was paid, and never a gift or an unpaid one", () => {
    const at = Date.parse("2026-04-01T12:00:00Z");
    const o = (id: string, price: number, renewal: boolean, paid = true): ReportOrder => ({
      id,
      userId: "s",
      paid,
      price,
      renewal,
      paidDay: dayOf(at),
      paidAt: at,
      createdAt: at,
    });
    const { days } = dayFacts([o("s1", 29, false), o("s2", 29, true), o("s3", 29, true, false), o("s4", 0, true)]);
    expect(days.get("2026-04-01")).toMatchObject({
      revenue: 58,
      paidOrders: 2,
      givenOrders: 1,
      firstOrders: 1,
      subscriptionRenewals: 1,
      subscriptionRevenue: 29,
    });
  });

  it("counts a paid order that used a code with what the code took off, and no unpaid or refunded one", () => {
    const at = Date.parse("2026-04-01T12:00:00Z");
    const o = (id: string, price: number, priceBefore: number | undefined, paid = true): ReportOrder => ({
      id,
      userId: "d",
      paid,
      price,
      priceBefore,
      paidDay: dayOf(at),
      paidAt: at,
      createdAt: at,
    });
    const { days } = dayFacts([
      o("d1", 21.75, 29),
      o("d2", 44.25, 59),
      o("d3", 29, undefined),
      o("d4", 10, 29, false), // unpaid or refunded: its discount is not given
    ]);
    expect(days.get("2026-04-01")).toMatchObject({
      revenue: 95,
      paidOrders: 3,
      discountedOrders: 2,
      discounts: 22,
    });
  });

  it("counts an erased customer's money and first order, and their windows on no day", () => {
    const s = Date.parse("2026-04-01T12:00:00Z");
    const o = (id: string, userId: string, erased: boolean): ReportOrder => ({
      id,
      userId,
      paid: true,
      price: 29,
      erased,
      paidDay: dayOf(s),
      paidAt: s,
      createdAt: s,
      window: { starts: s, valid: s + 30 * DAY, startDay: dayOf(s), endDay: dayOf(s + 30 * DAY) },
    });
    const { days, payers } = dayFacts([o("e1", "kept", false), o("e2", "gone", true)]);
    expect(days.get("2026-04-01")).toMatchObject({ revenue: 58, paidOrders: 2, firstOrders: 2, windowStarts: 1 });
    expect(days.get(dayOf(s + 30 * DAY))).toMatchObject({ windowEnds: 1, membershipsEnded: 1 });
    expect(payers.get("2026-04-01")).toBe(2);
  });

  it("counts a known history", () => {
    const o = (id: string, userId: string, price: number, starts: string, days: number): ReportOrder => {
      const s = Date.parse(starts);
      return {
        id,
        userId,
        paid: true,
        price,
        paidDay: dayOf(s),
        paidAt: s,
        createdAt: s,
        window: { starts: s, valid: s + days * DAY, startDay: dayOf(s), endDay: dayOf(s + days * DAY) },
      };
    };
    const { days, payers } = dayFacts([
      o("a1", "a", 29, "2026-01-10T12:00:00Z", 30),
      o("a2", "a", 29, "2026-02-09T12:00:00Z", 30), // straight after: a renewal bought before the end
      o("b1", "b", 0, "2026-02-05T12:00:00Z", 30), // given; ends 2026-03-07
      o("b2", "b", 59, "2026-03-20T12:00:00Z", 30), // 13 days after: renewed, and b's first paid order
    ]);
    const pick = (d: string) => days.get(d);
    expect(pick("2026-01-10")).toMatchObject({ revenue: 29, paidOrders: 1, firstOrders: 1, windowStarts: 1 });
    expect(pick("2026-02-09")).toMatchObject({ revenue: 29, paidOrders: 1, firstOrders: 0, windowEnds: 1 });
    expect(pick("2026-02-05")).toMatchObject({ revenue: 0, givenOrders: 1, paidOrders: 0 });
    expect(pick("2026-03-07")).toMatchObject({ membershipsEnded: 1, membershipsRenewed: 1 });
    expect(pick("2026-03-11")).toMatchObject({ membershipsEnded: 1, membershipsRenewed: 0 });
    expect(pick("2026-03-20")).toMatchObject({ revenue: 59, firstOrders: 1, subscriptionRenewals: 0 });
    expect([...payers]).toEqual([
      ["2026-01-01", 1],
      ["2026-02-01", 1],
      ["2026-03-01", 1],
    ]);
  });

  it("holds over any histories: one first order per paying customer, ends and renewals, windows in and out", () => {
    fc.assert(
      fc.property(fc.array(history("c"), { minLength: 1, maxLength: 5 }), (histories) => {
        const orders = histories.flatMap((h, i) => h.map((o) => ({ ...o, id: `${i}-${o.id}`, userId: `c${i}` })));
        const { days } = dayFacts(orders);
        const sum = (k: keyof (typeof days extends Map<string, infer V> ? V : never)) =>
          [...days.values()].reduce((n, f) => n + f[k], 0);
        const payingCustomers = new Set(orders.filter((o) => o.paid && o.price > 0).map((o) => o.userId)).size;
        expect(sum("firstOrders")).toBe(payingCustomers);
        expect(sum("paidOrders")).toBe(orders.filter((o) => o.paid && o.price > 0).length);
        expect(sum("givenOrders")).toBe(orders.filter((o) => o.paid && o.price === 0).length);
        // Discounts: each paid order with a code once, and revenue + discounts = the paid orders' prices before codes.
        const paid = orders.filter((o) => o.paid);
        expect(sum("discountedOrders")).toBe(paid.filter((o) => o.priceBefore !== undefined).length);
        const cents = (n: number) => Math.round(n * 100);
        expect(cents(sum("revenue") + sum("discounts"))).toBe(
          paid.reduce((n, o) => n + cents(o.priceBefore ?? o.price), 0),
        );
        expect(cents(sum("discounts"))).toBe(
          paid.reduce((n, o) => n + (o.priceBefore === undefined ? 0 : cents(o.priceBefore) - cents(o.price)), 0),
        );
        const windows = orders.filter((o) => o.window);
        expect(sum("windowStarts")).toBe(windows.length);
        expect(sum("windowEnds")).toBe(windows.length);
        // Each customer with a window has exactly one membership that never renews: their last.
        const members = new Set(windows.map((o) => o.userId)).size;
        expect(sum("membershipsEnded") - sum("membershipsRenewed")).toBeGreaterThanOrEqual(members);
        // A renewal is a window that starts after a gap of at most the grace days.
        const renewals = histories.reduce((n, h) => {
          const w = h.flatMap((o) => (o.window ? [o.window] : []));
          return (
            n +
            w.slice(1).filter((x, i) => x.starts > w[i]!.valid && x.starts <= w[i]!.valid + RENEWAL_GRACE_DAYS * DAY)
              .length
          );
        }, 0);
        expect(sum("membershipsRenewed")).toBe(renewals);
        // Members active at the end of any day never go below zero.
        let active = 0;
        for (const d of [...days.keys()].sort()) {
          active += days.get(d)!.windowStarts - days.get(d)!.windowEnds;
          expect(active).toBeGreaterThanOrEqual(0);
        }
      }),
      { numRuns: RUNS },
    );
  });
});
