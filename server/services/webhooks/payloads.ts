import { shownEmail } from "#domain/customers.ts";
import { toOrderRecord, type OrderRow } from "../orders/record";

/**
 * The `data` of the events about an order: the order as staff see it (the REST API's record: number, package,
 * amounts, VAT, statuses, dates), its id as `id`, and its customer. Nothing secret: no PayPal ids beyond what the
 * order screen shows, no tokens.
 */
export function orderData(o: OrderRow) {
  const { _id, ...record } = toOrderRecord(o);
  return {
    order: { id: _id, ...record },
    customer: customerOf(o),
  };
}

/** Who an order is for: the account's id, the address and name the order carries (none once erased). */
export const customerOf = (o: Pick<OrderRow, "userId" | "customerEmail" | "customerName">) => ({
  id: o.userId,
  email: shownEmail(o.customerEmail) ?? "",
  name: o.customerName,
});
