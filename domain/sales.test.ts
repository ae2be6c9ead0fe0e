import { describe, expect, it } from "vitest";
import { priceReasonProblem, salePayment, saleSchema } from "./sales";
import { parseWith } from "./validation";

const base = {
  packageId: "p1",
  customerName: "Ada Lovelace",
  customerAddress: "1 Quay Street",
  customerCountry: "United Kingdom",
  settle: "cash",
};
const errorsOf = (input: unknown) => {
  const r = parseWith(saleSchema, input);
  return r.ok ? [] : r.errors;
};

describe("saleSchema", () => {
  it("takes a form's strings and the API's JSON alike: blank price and reason are none, a ticked box is true", () => {
    const r = parseWith(saleSchema, { ...base, price: "", reason: " ", activate: "on", customerVatNumber: "" });
    expect(r.ok && r.data).toMatchObject({ price: null, reason: null, activate: true, customerVatNumber: null });
    const json = parseWith(saleSchema, { ...base, price: 49.5, activate: false });
    expect(json.ok && json.data).toMatchObject({ price: "49.5", activate: false });
  });

  it("parses its own output again (a page's checked value goes to the service, which checks it too)", () => {
    for (const input of [
      { ...base, price: "", reason: "", reference: "", customerVatNumber: "" },
      { ...base, price: "39.50", reason: "Agreed", settle: "bank-transfer", reference: "BACS 1", activate: "on" },
    ]) {
      const once = parseWith(saleSchema, input);
      expect(once.ok).toBe(true);
      const twice = parseWith(saleSchema, once.ok ? once.data : null);
      expect(twice).toEqual(once);
    }
  });

  it("refuses a price that is not an amount, or is 0, naming the field", () => {
    for (const price of ["abc", "-5", "49.999", "1e3", "49,50"])
      expect(errorsOf({ ...base, price }), price).toEqual([
        { field: "price", message: "Enter the price as an amount, such as 49 or 49.50" },
      ]);
    expect(errorsOf({ ...base, price: "0.00" })[0]).toMatchObject({ field: "price" });
  });

  it("wants the reference of a bank transfer and of a PayPal payment, not of cash or a pay link", () => {
    expect(errorsOf({ ...base, settle: "bank-transfer" })).toEqual([
      { field: "reference", message: "Enter the transfer's reference, as the bank statement shows it" },
    ]);
    expect(errorsOf({ ...base, settle: "paypal", reference: "  " })[0]).toMatchObject({ field: "reference" });
    expect(errorsOf({ ...base, settle: "pay-link" })).toEqual([]);
    expect(errorsOf({ ...base, settle: "cheque" })[0]).toMatchObject({ field: "settle" });
    expect(errorsOf({ ...base, settle: undefined })[0]).toMatchObject({ field: "settle" });
  });

  it("wants a package and the customer's name, address and country, bounded", () => {
    const fields = errorsOf({ settle: "cash", customerAddress: "x".repeat(301) }).map((e) => e.field);
    expect(fields).toEqual(expect.arrayContaining(["packageId", "customerName", "customerAddress", "customerCountry"]));
    expect(errorsOf({ ...base, reason: "x".repeat(201) })[0]).toMatchObject({ field: "reason" });
  });
});

describe("priceReasonProblem", () => {
  it("wants a reason only when the price differs from the package's", () => {
    expect(priceReasonProblem(4900, 4900, null)).toBeNull();
    expect(priceReasonProblem(4900, 3900, null)).toMatch(/^Say why the price differs/);
    expect(priceReasonProblem(4900, 3900, "  ")).toMatch(/^Say why/);
    expect(priceReasonProblem(4900, 5900, "Two extra pages")).toBeNull();
  });
});

describe("salePayment", () => {
  it("stores each way of paying with a method of the vocabulary and its reference", () => {
    expect(salePayment("bank-transfer", "BACS 77")).toEqual({ method: "Bank transfer", reference: "BACS 77" });
    expect(salePayment("cash", null)).toEqual({ method: "By hand", reference: "Cash" });
    expect(salePayment("cash", "receipt 12")).toEqual({ method: "By hand", reference: "Cash: receipt 12" });
    expect(salePayment("paypal", "8MC585209K746392H")).toEqual({ method: "PayPal", reference: "8MC585209K746392H" });
    expect(salePayment("pay-link", "ignored")).toBeNull();
  });
});
