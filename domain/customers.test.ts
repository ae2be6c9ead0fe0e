import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  bankTransferSchema,
  customerFiltersFromSearch,
  customerFiltersSchema,
  customerDisplayName,
  customersHref,
  customerState,
  endingSoon,
  grantSchema,
  shownEmail,
} from "./customers";
import { ERASED_NAME, erasedEmail } from "./privacy";
import { countsForMembership, DAY_MS, membershipOf, membershipTimeline, type TimelineOrder } from "./membership";
import { parseWith } from "./validation";

const NOW = new Date("2026-11-25T12:00:00Z");
const at = (days: number) => new Date(NOW.getTime() + days * DAY_MS);

describe("customerState", () => {
  it("names each state from the membership's end and the paid orders waiting", () => {
    expect(customerState(null, NOW)).toBe("never-paid");
    expect(customerState({ membershipEnds: null, waiting: 0 }, NOW)).toBe("never-paid");
    expect(customerState({ membershipEnds: at(3), waiting: 1 }, NOW)).toBe("active");
    expect(customerState({ membershipEnds: at(-3), waiting: 1 }, NOW)).toBe("waiting");
    expect(customerState({ membershipEnds: null, waiting: 2 }, NOW)).toBe("waiting");
    expect(customerState({ membershipEnds: at(-3), waiting: 0 }, NOW)).toBe("expired");
    expect(customerState({ membershipEnds: NOW, waiting: 0 }, NOW)).toBe("expired");
  });

  it("is ending soon while active and ending within 7 days", () => {
    expect(endingSoon({ membershipEnds: at(7), waiting: 0 }, NOW)).toBe(true);
    expect(endingSoon({ membershipEnds: at(7.01), waiting: 0 }, NOW)).toBe(false);
    expect(endingSoon({ membershipEnds: at(-1), waiting: 0 }, NOW)).toBe(false);
    expect(endingSoon(null, NOW)).toBe(false);
  });

  it("agrees with membershipOf for any history of orders (the dashboard and the list say the same)", () => {
    const order = fc.record({
      paymentStatus: fc.constantFrom("UnPaid", "Paid", "Cancelled", "Refunded" as const),
      orderStatus: fc.constantFrom("Pending", "Delivered" as const),
      packageValidity: fc.integer({ min: 1, max: 400 }),
      placedDaysAgo: fc.integer({ min: 0, max: 900 }),
      deliveredAfter: fc.integer({ min: 0, max: 30 }),
    });
    fc.assert(
      fc.property(fc.array(order, { maxLength: 8 }), (drafts) => {
        const orders: TimelineOrder[] = drafts.map((d, i) => {
          const placed = at(-d.placedDaysAgo);
          const delivered = new Date(Math.min(placed.getTime() + d.deliveredAfter * DAY_MS, NOW.getTime()));
          return {
            id: `o${i}`,
            paymentStatus: d.paymentStatus,
            orderStatus: d.orderStatus,
            packageValidity: d.packageValidity,
            paidAt: d.paymentStatus === "UnPaid" || d.paymentStatus === "Cancelled" ? null : placed,
            deliveredAt: d.orderStatus === "Delivered" ? delivered : null,
            createdAt: placed,
          };
        });
        const windows = new Map(membershipTimeline(orders).map((w) => [w.orderId, w]));
        const stored = orders.map((o) => ({
          ...o,
          packageName: "P",
          membershipStarts: windows.get(o.id)?.starts ?? null,
          membershipValid: windows.get(o.id)?.ends ?? null,
        }));
        // What the triggers keep: the latest end of a counting order, the paid orders waiting.
        const ends = stored
          .filter(countsForMembership)
          .reduce<Date | null>(
            (m, o) => (o.membershipValid && (!m || o.membershipValid > m) ? o.membershipValid : m),
            null,
          );
        const waiting = stored.filter((o) => o.paymentStatus === "Paid" && o.orderStatus === "Pending").length;
        const state = customerState({ membershipEnds: ends, waiting }, NOW);
        const m = membershipOf(
          stored.filter((o) => o.paymentStatus === "Paid"),
          NOW,
        ).state;
        expect(state).toBe(m === "none" ? "never-paid" : m);
      }),
      { numRuns: Number(process.env.FC_RUNS ?? 2000) },
    );
  });
});

describe("the list's filters", () => {
  it("reads a page address leniently and a REST query strictly", () => {
    expect(customerFiltersFromSearch(new URLSearchParams("q= ada &state=gold&sort=spent"))).toEqual({
      q: "ada",
      sort: "spent",
    });
    expect(parseWith(customerFiltersSchema, { state: "gold" })).toMatchObject({
      ok: false,
      errors: [{ field: "state" }],
    });
    expect(parseWith(customerFiltersSchema, {})).toEqual({ ok: true, data: { sort: "joined" } });
    expect(customersHref({ state: "ending-soon", sort: "joined" })).toBe("/customers?state=ending-soon");
  });
});

describe("the actions' forms", () => {
  it("takes 1 to 3650 whole days and a reason", () => {
    expect(parseWith(grantSchema, { days: "10", reason: " gift " })).toEqual({
      ok: true,
      data: { days: 10, reason: "gift" },
    });
    for (const days of ["0", "3651", "1.5", "ten", ""])
      expect(parseWith(grantSchema, { days, reason: "r" }), days).toMatchObject({
        ok: false,
        errors: [{ field: "days" }],
      });
    expect(parseWith(grantSchema, { days: 1, reason: "" })).toMatchObject({ ok: false, errors: [{ field: "reason" }] });
  });

  it("reads an unticked activation box as no, a ticked one as yes", () => {
    const base = { orderId: "x", reference: "BACS 1" };
    expect(parseWith(bankTransferSchema, base)).toMatchObject({ ok: true, data: { activate: false } });
    expect(parseWith(bankTransferSchema, { ...base, activate: "on" })).toMatchObject({
      ok: true,
      data: { activate: true },
    });
    expect(parseWith(bankTransferSchema, { ...base, activate: "maybe" })).toMatchObject({ ok: false });
  });
});

describe("customerDisplayName (issue 33, item 9)", () => {
  it("is the account's name if set, else the latest order's name, else none; an erased person's is the placeholder", () => {
    const email = "i.s@example.org";
    expect(customerDisplayName({ name: " Ingrid ", email, latestOrderName: "Ingrid Solberg" })).toBe("Ingrid");
    expect(customerDisplayName({ name: "  ", email, latestOrderName: " Ingrid Solberg " })).toBe("Ingrid Solberg");
    expect(customerDisplayName({ name: "", email, latestOrderName: null })).toBe("");
    expect(customerDisplayName({ name: "", email: erasedEmail("abc123"), latestOrderName: "Someone" })).toBe(
      ERASED_NAME,
    );
  });

  it("shows no address for an erased person, and an erased person is in no membership state", () => {
    expect(shownEmail("a@example.org")).toBe("a@example.org");
    expect(shownEmail(erasedEmail("abc123"))).toBeNull();
    const future = new Date(Date.now() + 30 * DAY_MS);
    expect(customerState({ membershipEnds: future, waiting: 1, erased: true }, new Date())).toBe("erased");
    expect(endingSoon({ membershipEnds: new Date(Date.now() + DAY_MS), waiting: 0, erased: true }, new Date())).toBe(
      false,
    );
  });
});
