import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { dayKey } from "./dates";
import {
  formatInvoiceNumber,
  invoiceNumberScope,
  normalInvoiceNumber,
  takesInvoiceNumber,
  type Invoiceable,
} from "./invoice-number";
import { applyOrderEvent, type EventType, type OrderState } from "./order-lifecycle";

const RUNS = Number(process.env.FC_RUNS ?? 2_000);
const ZONE = "America/New_York";

describe("invoice numbers", () => {
  it("are INV, the year and a sequence of at least five digits", () => {
    expect(formatInvoiceNumber(2026, 1)).toBe("INV-2026-00001");
    expect(formatInvoiceNumber(2027, 123456)).toBe("INV-2027-123456");
    expect(invoiceNumberScope(2026)).toBe("invoice:2026");
  });

  it("are recognised as typed, in any case, with spaces around", () => {
    expect(normalInvoiceNumber(" inv-2026-00042 ")).toBe("INV-2026-00042");
    expect(normalInvoiceNumber("INV-2026-42")).toBeNull();
    expect(normalInvoiceNumber("AN-2026-00042")).toBeNull();
  });

  it("are taken by the first payment of an order for money only", () => {
    const sale: Invoiceable = { invoiceNumber: null, packagePrice: 49 };
    expect(takesInvoiceNumber(sale, "pay")).toBe(true);
    expect(takesInvoiceNumber({ ...sale, invoiceNumber: "INV-2026-00001" }, "pay")).toBe(false);
    expect(takesInvoiceNumber({ ...sale, packagePrice: 0 }, "pay")).toBe(false);
    for (const e of ["deliver", "undeliver", "cancel", "refund", "reverse", "unpay"] as const)
      expect(takesInvoiceNumber(sale, e)).toBe(false);
  });
});

/**
 * Random histories of several orders (some gifts), each event applied by the lifecycle's rules and numbered by the
 * rule as the payment's transaction does (the year's counter + 1, in the site's zone), some transactions rolled back
 * after taking their number (the counter with them, as PostgreSQL does).
 */
describe("invoice numbering over random histories", () => {
  type Order = OrderState & Invoiceable & { invoiceYear: number | null; firstPaid: Date | null };
  const step = fc.record({
    order: fc.nat({ max: 7 }),
    type: fc.constantFrom<EventType>("pay", "pay", "deliver", "undeliver", "cancel", "refund", "reverse", "unpay"),
    // Days forward; a history crosses a new year now and then.
    after: fc.integer({ min: 0, max: 40 }),
    hour: fc.integer({ min: 0, max: 23 }),
    rolledBack: fc.integer({ min: 0, max: 3 }).map((n) => n === 0),
  });
  const histories = fc.record({
    prices: fc.array(fc.constantFrom(0, 29, 49, 99), { minLength: 8, maxLength: 8 }),
    steps: fc.array(step, { maxLength: 60 }),
  });

  it("gives every order paid for money one number, gap-free and unique per year, never changed", () => {
    fc.assert(
      fc.property(histories, ({ prices, steps }) => {
        const orders: Order[] = prices.map((packagePrice) => ({
          packagePrice,
          invoiceNumber: null,
          invoiceYear: null,
          firstPaid: null,
          paymentStatus: "UnPaid",
          orderStatus: "Pending",
          paidAt: null,
          deliveredAt: null,
          txnId: null,
        }));
        const counters = new Map<number, number>();
        let t = Date.UTC(2026, 10, 1);
        for (const s of steps) {
          t += s.after * 86_400_000 + s.hour * 3_600_000;
          const at = new Date(t);
          const before = orders[s.order]!;
          const r = applyOrderEvent(before, { type: s.type, at });
          if (r.kind !== "changed") continue;
          let next: Order = { ...before, ...r.state };
          if (takesInvoiceNumber(before, s.type)) {
            const year = Number(dayKey(at, ZONE).slice(0, 4));
            const taken = (counters.get(year) ?? 0) + 1;
            if (s.rolledBack) continue; // the transaction failed: its number and its change are gone together
            counters.set(year, taken);
            next = { ...next, invoiceNumber: formatInvoiceNumber(year, taken), invoiceYear: year };
          }
          if (before.invoiceNumber !== null) expect(next.invoiceNumber).toBe(before.invoiceNumber);
          if (s.type === "pay" && !before.firstPaid) next.firstPaid = at;
          orders[s.order] = next;
        }
        for (const o of orders) {
          // Invoiced exactly when money was once received for it; the year is that first payment's.
          expect(o.invoiceNumber !== null).toBe(o.firstPaid !== null && o.packagePrice > 0);
          if (o.invoiceNumber) expect(o.invoiceYear).toBe(Number(dayKey(o.firstPaid!, ZONE).slice(0, 4)));
        }
        const byYear = new Map<number, number[]>();
        for (const o of orders)
          if (o.invoiceNumber)
            byYear.set(o.invoiceYear!, [...(byYear.get(o.invoiceYear!) ?? []), seq(o.invoiceNumber)]);
        for (const [year, seqs] of byYear) {
          expect([...seqs].sort((a, b) => a - b)).toEqual(Array.from({ length: seqs.length }, (_, i) => i + 1));
          expect(counters.get(year)).toBe(seqs.length);
        }
      }),
      { numRuns: RUNS },
    );
  });
});

const seq = (number: string) => Number(number.split("-")[2]);
