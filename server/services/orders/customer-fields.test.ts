import { getTableColumns } from "drizzle-orm";
import { describe, expect, it } from "vitest";
import { ERASED_NAME, erasedEmail } from "#domain/privacy.ts";
import { orders } from "#server/db/schema.ts";
import { customerFieldsOf, erasedCustomerFields, unknownCustomer } from "./customer-fields";
import type { OrderRow } from "./record";

const customerColumns = Object.keys(getTableColumns(orders))
  .filter((k) => k.startsWith("customer"))
  .sort();

const customer = {
  customerEmail: "ada@example.com",
  customerName: "Ada Lovelace",
  customerAddress: "12 St James's Square, London",
  customerCountry: "United Kingdom",
  customerCountryCode: "GB",
  customerVatNumber: "GB123456789",
};

describe("the customer's fields an order carries", () => {
  it("copies every customer… column of orders and nothing else", () => {
    const order = { ...customer, id: "x", packageName: "Gold", packagePrice: 10 } as unknown as OrderRow;
    const copied = customerFieldsOf(order);
    expect(Object.keys(copied).sort()).toEqual(customerColumns);
    expect(copied).toEqual(customer);
  });

  it("fills what is not known with an order's empty values, keeping what is given", () => {
    const fields = unknownCustomer({ customerName: "Ada" });
    expect(Object.keys(fields).sort()).toEqual(customerColumns);
    expect(fields).toEqual({
      customerEmail: "",
      customerName: "Ada",
      customerAddress: "",
      customerCountry: "",
      customerCountryCode: null,
      customerVatNumber: null,
    });
  });

  it("erases who placed the order and keeps what the accounts need", () => {
    expect(erasedCustomerFields("user-1")).toEqual({
      customerEmail: erasedEmail("user-1"),
      customerName: ERASED_NAME,
      customerAddress: "",
    });
  });
});
