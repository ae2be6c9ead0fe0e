import fc from "fast-check";
import { describe, expect, it } from "vitest";
import {
  creditNoteAmounts,
  creditNoteLayout,
  creditNoteNumberScope,
  formatCreditNoteNumber,
  normalCreditNoteNumber,
  type CreditNote,
} from "./credit-note";

const RUNS = Number(process.env.FC_RUNS ?? 2_000);

describe("credit note numbers", () => {
  it("are CN, the year and a sequence of at least five digits, counted per year", () => {
    expect(formatCreditNoteNumber(2026, 1)).toBe("CN-2026-00001");
    expect(formatCreditNoteNumber(2027, 123456)).toBe("CN-2027-123456");
    expect(creditNoteNumberScope(2026)).toBe("credit-note:2026");
  });

  it("are recognised as typed, in any case, with spaces around", () => {
    expect(normalCreditNoteNumber(" cn-2026-00042 ")).toBe("CN-2026-00042");
    expect(normalCreditNoteNumber("CN-2026-42")).toBeNull();
    expect(normalCreditNoteNumber("INV-2026-00042")).toBeNull();
    expect(normalCreditNoteNumber("../etc")).toBeNull();
  });
});

describe("a credit note's amounts", () => {
  const order = { grossCents: 4900, taxCents: 817, rateBasisPoints: 2000 };
  const none = { grossCents: 0, taxCents: 0 };

  it("split the money returned into net and VAT at the order's rate, rounded half up", () => {
    expect(creditNoteAmounts(order, none, 1050)).toEqual({ grossCents: 1050, taxCents: 175, netCents: 875 });
    // The rest takes what is left of the VAT, so the two add up to the order's.
    expect(creditNoteAmounts(order, { grossCents: 1050, taxCents: 175 }, 3850)).toEqual({
      grossCents: 3850,
      taxCents: 642,
      netCents: 3208,
    });
  });

  it("credit all that is left when no amount is given (Refunded by hand), and nothing once all is credited", () => {
    expect(creditNoteAmounts(order, none, null)).toEqual({ grossCents: 4900, taxCents: 817, netCents: 4083 });
    expect(creditNoteAmounts(order, { grossCents: 1050, taxCents: 175 }, null)).toEqual({
      grossCents: 3850,
      taxCents: 642,
      netCents: 3208,
    });
    expect(creditNoteAmounts(order, { grossCents: 4900, taxCents: 817 }, null)).toBeNull();
    expect(creditNoteAmounts(order, { grossCents: 4900, taxCents: 817 }, 100)).toBeNull();
    expect(creditNoteAmounts(order, none, 0)).toBeNull();
  });

  it("return no VAT on an untaxed sale", () => {
    expect(creditNoteAmounts({ grossCents: 4900, taxCents: 0, rateBasisPoints: 0 }, none, 1000)).toEqual({
      grossCents: 1000,
      taxCents: 0,
      netCents: 1000,
    });
  });

  it("never return more than the order was charged, gross or VAT, and net + VAT = gross on every note", () => {
    fc.assert(
      fc.property(
        fc.integer({ min: 1, max: 10_000_000 }),
        fc.integer({ min: 0, max: 2700 }),
        fc.array(fc.option(fc.integer({ min: 1, max: 10_000_000 }), { nil: null }), { maxLength: 8 }),
        (gross, rate, refunds) => {
          const tax = Math.round((gross * rate) / (10_000 + rate));
          const charged = { grossCents: gross, taxCents: tax, rateBasisPoints: rate };
          const credited = { grossCents: 0, taxCents: 0 };
          for (const refund of refunds) {
            const note = creditNoteAmounts(charged, credited, refund);
            if (!note) continue;
            expect(note.netCents + note.taxCents).toBe(note.grossCents);
            expect(note.grossCents).toBeGreaterThan(0);
            expect(note.taxCents).toBeGreaterThanOrEqual(0);
            expect(note.netCents).toBeGreaterThanOrEqual(0);
            credited.grossCents += note.grossCents;
            credited.taxCents += note.taxCents;
          }
          expect(credited.grossCents).toBeLessThanOrEqual(gross);
          expect(credited.taxCents).toBeLessThanOrEqual(tax);
          // Whatever came before, crediting the rest returns exactly what the order was charged.
          const rest = creditNoteAmounts(charged, credited, null);
          if (rest) {
            credited.grossCents += rest.grossCents;
            credited.taxCents += rest.taxCents;
          }
          expect(credited).toEqual({ grossCents: gross, taxCents: tax });
        },
      ),
      { numRuns: RUNS },
    );
  });
});

describe("a credit note's text", () => {
  const note: CreditNote = {
    creditNoteNumber: "CN-2026-00003",
    issuedAt: "2026-11-28T12:00:00Z",
    invoiceNumber: "INV-2026-00007",
    invoiceDate: "2026-11-01T12:00:00Z",
    orderNumber: "AN-2026-00123",
    orderId: "00000000-0000-4000-8000-000000000123",
    seller: {
      name: "Atelier North Studio",
      address: "Unit 4, 18 Mill Lane\nLeeds LS1 4AB",
      phone: "",
      email: "studio@example.com",
      website: "https://ateliernorth.example/",
      companyNumber: "",
      vatNumber: "GB123456789",
      registeredAddress: "",
    },
    customer: {
      name: "Nora Lindqvist",
      email: "nora@example.org",
      address: "2 Dock Road, Hull",
      country: "UK",
      vatNumber: null,
    },
    packageName: "Standard",
    currency: "GBP",
    grossCents: 1050,
    taxCents: 175,
    netCents: 875,
    rateBasisPoints: 2000,
    taxed: true,
    taxNote: null,
    reason: "Late start",
  };

  it("names the invoice it corrects and the money returned, net and VAT, in the order's currency", () => {
    const layout = creditNoteLayout(
      { ...note, customer: { ...note.customer, vatNumber: "GB987654321" }, taxNote: "A note" },
      "UTC",
    );
    expect(layout.billedTo).toEqual([
      "Nora Lindqvist",
      "2 Dock Road",
      "Hull",
      "UK",
      "VAT number GB987654321",
      "nora@example.org",
    ]);
    expect(layout.title).toBe("Credit note");
    expect(layout.facts).toEqual([
      ["Credit note number", "CN-2026-00003"],
      ["Date", "Nov 28, 2026"],
      ["Corrects invoice", "INV-2026-00007"],
      ["Invoice date", "Nov 1, 2026"],
      ["Order", "AN-2026-00123"],
    ]);
    expect(layout.line).toEqual({
      description: "Refund: Standard membership",
      detail: "Money returned on invoice INV-2026-00007. Reason: Late start",
      amount: "£10.50 GBP",
    });
    expect(layout.vat).toEqual([
      ["Net refunded", "£8.75 GBP"],
      ["VAT at 20% refunded", "£1.75 GBP"],
    ]);
    expect(layout.total).toEqual(["Total refunded", "£10.50 GBP"]);
    expect(layout.notes).toEqual(["A note"]);
    expect(layout.seller.legal).toEqual(["VAT number GB123456789"]);
  });

  it("prints no VAT line for an unregistered seller's sale", () => {
    const layout = creditNoteLayout(
      { ...note, currency: "USD", taxCents: 0, netCents: 1050, rateBasisPoints: 0, taxed: false, reason: null },
      "UTC",
    );
    expect(layout.vat).toEqual([]);
    expect(layout.line.detail).toBe("Money returned on invoice INV-2026-00007.");
    expect(layout.total).toEqual(["Total refunded", "$10.50 USD"]);
  });
});
