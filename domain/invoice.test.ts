import { describe, expect, it } from "vitest";
import { invoiceAmount, invoiceLayout, type Invoice } from "./invoice";

const invoice: Invoice = {
  invoiceNumber: "INV-2026-00007",
  invoiceDate: "2026-12-31T23:30:00-05:00",
  orderNumber: "AN-2026-00123",
  orderId: "00000000-0000-4000-8000-000000000123",
  paymentStatus: "Paid",
  seller: {
    name: "Atelier North Studio",
    address: "Unit 4, 18 Mill Lane\nLeeds LS1 4AB",
    phone: "+44 113 496 0728",
    email: "studio@example.com",
    website: "https://ateliernorth.example/",
    companyNumber: "",
    vatNumber: "",
    registeredAddress: "",
  },
  customer: { name: "Nora Lindqvist", email: "nora@example.org", address: "2 Dock Road, Hull", country: "UK" },
  item: {
    packageName: "Standard",
    validityDays: 30,
    periodStarts: "2027-01-01T04:30:00Z",
    periodEnds: "2027-01-31T04:30:00Z",
  },
  amount: 49,
  currency: "USD",
  tax: { taxCents: 0, rateBasisPoints: 0, treatment: "not-registered", note: null },
  customerVatNumber: null,
  creditNotes: [],
  payment: { method: "PayPal", reference: "8MC585209K746392H", paidAt: "2027-01-01T04:30:00Z" },
};

describe("an invoice's text", () => {
  it("says who, what, when and how it was paid, every date in the site's zone", () => {
    const layout = invoiceLayout(invoice, "America/New_York");
    expect(layout.facts).toEqual([
      ["Invoice number", "INV-2026-00007"],
      ["Invoice date", "Dec 31, 2026"],
      ["Order", "AN-2026-00123"],
      ["Payment", "PayPal"],
      ["PayPal transaction", "8MC585209K746392H"],
      ["Paid on", "Dec 31, 2026"],
    ]);
    expect(layout.seller.lines).toEqual([
      "Unit 4",
      "18 Mill Lane",
      "Leeds LS1 4AB",
      "+44 113 496 0728",
      "studio@example.com",
      "ateliernorth.example",
    ]);
    expect(layout.billedTo).toEqual(["Nora Lindqvist", "2 Dock Road", "Hull", "UK", "nora@example.org"]);
    expect(layout.line).toEqual({
      description: "Standard membership",
      detail: "Membership from Dec 31, 2026 to Jan 30, 2027",
      amount: "$49.00 USD",
    });
    expect(layout.total).toEqual(["Total paid", "$49.00 USD"]);
    expect(layout.notice).toBeNull();
    expect(layout.seller.legal).toEqual([]);
  });

  it("prints the legal details only when set, and a bank transfer's reference", () => {
    const layout = invoiceLayout(
      {
        ...invoice,
        seller: {
          ...invoice.seller,
          companyNumber: "SC1",
          vatNumber: "GB 1",
          registeredAddress: "1 Law St\nEdinburgh",
        },
        payment: { method: "Bank transfer", reference: "REF-42", paidAt: invoice.payment.paidAt },
      },
      "UTC",
    );
    expect(layout.seller.legal).toEqual([
      "Company number SC1",
      "VAT number GB 1",
      "Registered address: 1 Law St, Edinburgh",
    ]);
    expect(layout.facts).toContainEqual(["Payment", "Bank transfer"]);
    expect(layout.facts).toContainEqual(["Payment reference", "REF-42"]);
  });

  it("says when the payment was refunded or is no longer recorded, and a period not yet started", () => {
    const waiting = { ...invoice.item, periodStarts: null, periodEnds: null };
    const refunded = invoiceLayout({ ...invoice, paymentStatus: "Refunded", item: waiting }, "UTC");
    expect(refunded.notice).toBe("This payment was refunded.");
    expect(refunded.total).toEqual(["Total", "$49.00 USD"]);
    expect(refunded.line.detail).toBe("Membership of 30 days, from its activation");
    const unpaid = invoiceLayout(
      { ...invoice, paymentStatus: "UnPaid", payment: { ...invoice.payment, paidAt: null } },
      "UTC",
    );
    expect(unpaid.notice).toBe("This payment is no longer recorded as received.");
    expect(unpaid.facts.map(([label]) => label)).not.toContain("Paid on");
    expect(invoiceAmount(1234.5)).toBe("$1234.50 USD");
  });
});

describe("a VAT invoice (issue 35, decision 073)", () => {
  const taxed: Invoice = {
    ...invoice,
    amount: 49,
    currency: "GBP",
    seller: { ...invoice.seller, vatNumber: "GB123456789" },
    tax: { taxCents: 817, rateBasisPoints: 2000, treatment: "domestic", note: null },
  };

  it("prints the net, the VAT at the order's rate and the total, in the order's currency", () => {
    const layout = invoiceLayout(taxed, "UTC");
    // The line's price excluding VAT, as a full VAT invoice states it.
    expect(layout.line.amount).toBe("£40.83 GBP");
    expect(layout.vat).toEqual([
      ["Net", "£40.83 GBP"],
      ["VAT at 20%", "£8.17 GBP"],
    ]);
    expect(layout.total).toEqual(["Total paid", "£49.00 GBP"]);
    expect(layout.seller.legal).toContain("VAT number GB123456789");
    expect(layout.notes).toEqual([]);
  });

  it("names whose rate a One Stop Shop sale is at", () => {
    const layout = invoiceLayout(
      { ...taxed, tax: { taxCents: 782, rateBasisPoints: 1900, treatment: "oss", note: null, country: "DE" } },
      "UTC",
    );
    expect(layout.vat[1]).toEqual(["VAT at 19% (Germany)", "£7.82 GBP"]);
  });

  it("names the buyer's VAT number and prints the reverse charge's note, with no VAT", () => {
    const layout = invoiceLayout(
      {
        ...taxed,
        currency: "EUR",
        tax: {
          taxCents: 0,
          rateBasisPoints: 0,
          treatment: "reverse-charge",
          note: "Reverse charge: customer to account for VAT",
        },
        customerVatNumber: "DE123456789",
      },
      "UTC",
    );
    expect(layout.billedTo).toContain("VAT number DE123456789");
    expect(layout.vat).toEqual([
      ["Net", "€49.00 EUR"],
      ["VAT", "€0.00 EUR"],
    ]);
    expect(layout.notes).toEqual(["Reverse charge: customer to account for VAT"]);
  });

  it("prints an unregistered seller's sale exactly as before: no VAT line, no note, a buyer's VAT number unsaid", () => {
    const layout = invoiceLayout({ ...invoice, customerVatNumber: "DE123456789" }, "UTC");
    expect(layout.vat).toEqual([]);
    expect(layout.notes).toEqual([]);
    expect(layout.billedTo).toEqual(["Nora Lindqvist", "2 Dock Road", "Hull", "UK", "nora@example.org"]);
    expect(layout.total).toEqual(["Total paid", "$49.00 USD"]);
  });

  it("lists the credit notes that correct it, in its currency", () => {
    const layout = invoiceLayout(
      { ...taxed, creditNotes: [{ number: "CN-2027-00001", issuedAt: "2027-01-05T12:00:00Z", grossCents: 1050 }] },
      "UTC",
    );
    expect(layout.creditNotes).toEqual([
      { number: "CN-2027-00001", text: "Credit note CN-2027-00001 of Jan 5, 2027: £10.50 GBP refunded." },
    ]);
  });
});
