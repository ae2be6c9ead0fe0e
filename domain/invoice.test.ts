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
