/**
 * The currencies a price may be in (issue 35): US dollars (the default), pounds sterling and euros, each written with
 * two decimals. Amounts are whole cents (pence, euro cents) from the moment they are read: a price is parsed from its
 * decimal text, never multiplied as a float, so 1.15 is 115 cents and not 114.99999999999999. `money()` in format.ts
 * stays as it is for the dollar amounts already written with it.
 */

/** The currencies offered, the default first. */
export const CURRENCIES = ["USD", "GBP", "EUR"] as const;

export type Currency = (typeof CURRENCIES)[number];

/** The symbol written before an amount. */
export const CURRENCY_SYMBOL: Record<Currency, string> = { USD: "$", GBP: "£", EUR: "€" };

/** Decimal places of each currency: two for all three (what PayPal and the invoices show). */
export const CURRENCY_DECIMALS: Record<Currency, 2> = { USD: 2, GBP: 2, EUR: 2 };

/** Whether a value read from settings or a form is one of the currencies offered (exactly, upper case). */
export const isCurrency = (value: unknown): value is Currency =>
  typeof value === "string" && (CURRENCIES as readonly string[]).includes(value);

// Digits, then optionally a point and digits; a number's own text (String(49) is "49", String(24.5) is "24.5").
const DECIMAL = /^(\d*)(?:\.(\d+))?$/;

/**
 * A price as whole cents, exactly: 49, "49", "49.00" → 4900; 24.5 → 2450. The decimal text is parsed (a number is read
 * through its shortest text, String(n)), so no float multiplication can lose a cent. Throws a RangeError for what is
 * not an amount: a sign, more than two decimals that are not zeros, an exponent, a separator, or more cents than a safe
 * integer holds.
 */
export function centsOf(price: number | string): number {
  const text = typeof price === "number" ? String(price) : price.trim();
  const match = DECIMAL.exec(text);
  const whole = match?.[1] ?? "";
  const fraction = match?.[2] ?? "";
  if (!match || (whole === "" && fraction === "") || /[^0]/.test(fraction.slice(2)))
    throw new RangeError(`not an amount with at most two decimals: ${text}`);
  const cents = BigInt(whole || "0") * 100n + BigInt(fraction.slice(0, 2).padEnd(2, "0"));
  if (cents > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`too large an amount: ${text}`);
  return Number(cents);
}

/** Whole cents as a decimal string with two places: 4900 → "49.00", 5 → "0.05". */
export function centsToDecimal(cents: number): string {
  if (!Number.isSafeInteger(cents) || cents < 0) throw new RangeError(`not an amount of cents: ${cents}`);
  return `${Math.floor(cents / 100)}.${String(cents % 100).padStart(2, "0")}`;
}

/** An amount for people, its currency's symbol first: "$49.00", "£49.00", "€49.00". */
export const formatMoney = (cents: number, currency: Currency): string =>
  `${CURRENCY_SYMBOL[currency]}${centsToDecimal(cents)}`;

/**
 * An amount as the spec writes a price with its currency, "$49.00 USD" (the pay screen, the order summary, the
 * invoices): the symbol, two decimals and the code, so "£49.00 GBP" and "€49.00 EUR" too.
 */
export const amountWithCode = (cents: number, currency: Currency): string =>
  `${formatMoney(cents, currency)} ${currency}`;
