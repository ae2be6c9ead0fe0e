import { ERASED_NAME, erasedEmail } from "#domain/privacy.ts";
import type { OrderRow } from "./record";

/** The columns of orders that say who placed the order (every one named customer…), as they were when it was placed. */
export type CustomerColumn = Extract<keyof OrderRow, `customer${string}`>;

/** The customer's fields an order carries. */
export type CustomerFields = Pick<OrderRow, CustomerColumn>;

/** An erasure leaves this field as it is (the accounts need it: the country and VAT number tax the sale). */
const KEPT = "kept";

/**
 * Every customer's field an order carries, once: what an order takes when nothing is known of the customer, and what
 * an erasure leaves in it (decision 045), a value or KEPT. Typed by the orders table's columns: a new customer…
 * column not named here does not compile, so the commands that copy these fields (grant, renew) and the erasure never
 * miss it (decision 085).
 */
const CUSTOMER_FIELDS = {
  customerEmail: { unknown: "", erased: (userId: string) => erasedEmail(userId) },
  customerName: { unknown: "", erased: () => ERASED_NAME },
  customerAddress: { unknown: "", erased: () => "" },
  customerCountry: { unknown: "", erased: KEPT },
  customerCountryCode: { unknown: null, erased: KEPT },
  customerVatNumber: { unknown: null, erased: KEPT },
} as const satisfies {
  [K in CustomerColumn]: { unknown: CustomerFields[K]; erased: ((userId: string) => CustomerFields[K]) | typeof KEPT };
};

const COLUMNS = Object.keys(CUSTOMER_FIELDS) as CustomerColumn[];

const fieldsOf = (value: (column: CustomerColumn) => unknown) =>
  Object.fromEntries(COLUMNS.map((column) => [column, value(column)])) as CustomerFields;

/** The customer's fields of an order (or of anything that has them all), and nothing else: what a new order copies. */
export const customerFieldsOf = (source: CustomerFields): CustomerFields => fieldsOf((column) => source[column]);

/** The customer's fields when nothing is known of them but what is given (an account's name and email). */
export const unknownCustomer = (known: Partial<CustomerFields> = {}): CustomerFields =>
  fieldsOf((column) => (column in known ? known[column] : CUSTOMER_FIELDS[column].unknown));

/** What an erasure writes over an erased customer's orders: every customer's field not kept. */
export function erasedCustomerFields(userId: string): Partial<CustomerFields> {
  const erased: Partial<Record<CustomerColumn, unknown>> = {};
  for (const column of COLUMNS) {
    const rule: { erased: ((userId: string) => unknown) | typeof KEPT } = CUSTOMER_FIELDS[column];
    if (rule.erased !== KEPT) erased[column] = rule.erased(userId);
  }
  return erased as Partial<CustomerFields>;
}
