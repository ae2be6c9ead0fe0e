/**
 * The order number a person reads and says: `AN-2026-00123`, the year the order was placed (in the site's time zone)
 * and its place in that year, counted without a gap by the transaction that places it (server/services/orders). The
 * same text in every mail, page, CSV, PayPal item name and search.
 */

export const ORDER_NUMBER_PREFIX = "AN";

/** The counter an order number is drawn from: one per year. */
export const orderNumberScope = (year: number) => `order:${year}`;

export function formatOrderNumber(year: number, sequence: number): string {
  return `${ORDER_NUMBER_PREFIX}-${year}-${String(sequence).padStart(5, "0")}`;
}

const NUMBER = new RegExp(`^${ORDER_NUMBER_PREFIX}-(\\d{4})-(\\d{5,})$`, "i");

/** An order number as typed (any case, spaces around it) in its stored form, or null if it is not one. */
export function normalOrderNumber(typed: string): string | null {
  const match = NUMBER.exec(typed.trim());
  return match ? formatOrderNumber(Number(match[1]), Number(match[2])) : null;
}
