/**
 * The tax of a sale, decided by one pure function (issue 35 part 2, decision 071): from the seller's VAT settings, the
 * buyer's country and VAT number, the price and the date, the net, the VAT, the gross, the rate and the legal note an
 * invoice prints. Every page, invoice and report that shows VAT reads it from here, so two of them can never disagree.
 * Money is whole cents and rates whole basis points; the one division is done on integers (BigInt), never on floats.
 */
import { isCurrency, type Currency } from "./currency";
import { checkVatNumber } from "./vat-number";
import { isEuCountry, standardRate, vatCountry, type VatCountry } from "./vat-rates";

/**
 * How a sale is taxed:
 * - `not-registered`: the seller is not registered for VAT, so charges none;
 * - `domestic`: the seller's own country's VAT (a buyer at home, or one whose country is not known; for an EU seller
 *   without the Union OSS, consumers in other member states too);
 * - `oss`: a consumer in a member state pays that state's VAT, declared through the One Stop Shop;
 * - `reverse-charge`: a business in another member state (or, for a UK seller, in the Union) with a VAT number
 *   accounts for the VAT itself;
 * - `outside-scope`: the sale is not taxed on the seller's side at all (a buyer elsewhere in the world, or an EU
 *   consumer of a UK seller outside the non-Union OSS).
 */
export const TAX_TREATMENTS = ["not-registered", "domestic", "oss", "reverse-charge", "outside-scope"] as const;
export type TaxTreatment = (typeof TAX_TREATMENTS)[number];

/** The note an invoice prints on a reverse-charged sale, as HMRC and the EU's invoicing rules word it. */
export const REVERSE_CHARGE_NOTE = "Reverse charge: customer to account for VAT";
/** The note on a UK seller's sale outside the scope of UK VAT. */
export const OUTSIDE_UK_VAT_NOTE = "Outside the scope of UK VAT";
/** The note on an EU seller's sale outside the scope of EU VAT (its buyer is outside the Union). */
export const OUTSIDE_EU_VAT_NOTE = "Outside the scope of EU VAT";

/** The seller's VAT settings (issue 35 part 1), as the rule reads them. */
export interface TaxSeller {
  /** Where the seller is established: GB (or UK) or a member state's ISO code. */
  country: string;
  vatRegistered: boolean;
  /** The seller's own VAT number; needed when registered. */
  vatNumber: string;
  /** Whether the prices entered are gross (VAT included) or net. */
  pricesIncludeVat: boolean;
  /**
   * Whether the seller uses the One Stop Shop for consumers in the Union: the non-Union scheme for a UK seller, the
   * Union scheme for a seller in a member state.
   */
  oss: boolean;
}

/** The buyer, as the order gives it. */
export interface TaxBuyer {
  /** An ISO 3166 alpha-2 code (UK and EL accepted); blank or anything else when not known. */
  country: string;
  /** Their VAT number, already checked with checkVatNumber; null or blank for a consumer. */
  vatNumber: string | null;
}

export interface TaxInput {
  seller: TaxSeller;
  buyer: TaxBuyer;
  /** The package's price as entered: net or gross as the seller's settings say. */
  price: { cents: number; currency: Currency };
  /**
   * When the sale is made (the tax point): its day, "YYYY-MM-DD", in the site's time zone (`dayKey(moment, timeZone)`
   * from dates.ts: a change takes effect at midnight where the seller is), or a moment, whose UTC day picks the rate.
   */
  date: Date | string;
}

/** The tax of one line. */
export interface Tax {
  netCents: number;
  taxCents: number;
  grossCents: number;
  currency: Currency;
  /** The rate charged, 2000 = 20 %; 0 when no VAT is charged. */
  rateBasisPoints: number;
  /** Whose rate it is; null when no VAT is charged. */
  rateCountry: VatCountry | null;
  treatment: TaxTreatment;
  /** The legal note an invoice prints, or null when none is needed. */
  note: string | null;
}

/** The seller's settings cannot be taxed: a clear error for the settings page or the log, never a guess. */
export class VatSettingsError extends Error {
  override name = "VatSettingsError";
}

/** A buyer's VAT number that is not of their country's form; the message names the form. */
export class InvalidVatNumberError extends Error {
  override name = "InvalidVatNumberError";
}

/**
 * `round(numerator / denominator)` to the nearest integer, exact halves up, in integers: both are non-negative.
 * floor((2n + d) / 2d) is n / d + 1/2 rounded down.
 */
const divideHalfUp = (numerator: bigint, denominator: bigint): bigint =>
  (2n * numerator + denominator) / (2n * denominator);

/** A line charged at `rate`: the price is the net or the gross as the settings say; the VAT is rounded per line. */
function charged(cents: number, rate: number, pricesIncludeVat: boolean) {
  const price = BigInt(cents);
  const r = BigInt(rate);
  const tax = pricesIncludeVat ? divideHalfUp(price * r, 10000n + r) : divideHalfUp(price * r, 10000n);
  const [net, gross] = pricesIncludeVat ? [price - tax, price] : [price, price + tax];
  if (gross > BigInt(Number.MAX_SAFE_INTEGER)) throw new RangeError(`too large an amount with its VAT: ${gross}`);
  return { netCents: Number(net), taxCents: Number(tax), grossCents: Number(gross) };
}

/**
 * The tax of a sale (issue 35, decision 071). Rules, in order:
 * 1. A seller not registered for VAT charges none (`not-registered`).
 * 2. The buyer's country is read as an ISO code (UK and EL accepted). Blank, or not a two-letter code (free text such
 *    as "United Kingdom"): not known, so taxed where the seller belongs (`domestic`): charging the seller's VAT is
 *    the safe side, and an invoice can be corrected with a credit note. Any other two-letter code outside the UK and
 *    the Union is a buyer elsewhere.
 * 3. A buyer in the seller's own country pays the seller's VAT (`domestic`), business or consumer: a UK business
 *    with a VAT number still pays UK VAT (a sale within one country is not reverse charged).
 * 4. A business with a VAT number in a member state other than the seller's (for a UK seller, any member state):
 *    `reverse-charge`, with REVERSE_CHARGE_NOTE.
 * 5. A consumer in a member state other than the seller's: with OSS, that state's rate (`oss`). Without OSS, a UK
 *    seller's sale is outside the scope of UK VAT (`outside-scope`, OUTSIDE_UK_VAT_NOTE: the VAT of the buyer's state
 *    is then the seller's to settle by registering there, which this site does not do); an EU seller charges its own
 *    VAT (`domestic`), as the Union allows below its EUR 10,000 threshold for such sales.
 * 6. Anyone else (outside the UK and the Union; for an EU seller, the UK too): `outside-scope`, with
 *    OUTSIDE_UK_VAT_NOTE or OUTSIDE_EU_VAT_NOTE by the seller's side.
 * With no VAT charged the whole price is net and gross alike: a price that includes VAT costs the same to everyone.
 * Money: excluding VAT, tax = round(net × rate / 10000), gross = net + tax; including, tax = round(gross × rate /
 * (10000 + rate)), net = gross − tax; per line, to the nearest cent, halves up.
 * Throws: MissingVatRateError (no rate for the country on the day), InvalidVatNumberError (the buyer's number is not
 * of their country's form), VatSettingsError (a registered seller outside the UK and the Union, or without a valid
 * VAT number), RangeError (not whole cents, or not a currency offered).
 */
export function taxFor({ seller, buyer, price, date }: TaxInput): Tax {
  if (!Number.isSafeInteger(price.cents) || price.cents < 0)
    throw new RangeError(`not an amount of cents: ${price.cents}`);
  if (!isCurrency(price.currency)) throw new RangeError(`not a currency offered: ${String(price.currency)}`);
  const untaxed = (treatment: TaxTreatment, note: string | null): Tax => ({
    netCents: price.cents,
    taxCents: 0,
    grossCents: price.cents,
    currency: price.currency,
    rateBasisPoints: 0,
    rateCountry: null,
    treatment,
    note,
  });
  if (!seller.vatRegistered) return untaxed("not-registered", null);

  const home = vatCountry(seller.country);
  if (!home)
    throw new VatSettingsError(
      `VAT is charged only by a seller in the UK or the European Union; the seller's country is ${seller.country.trim() || "blank"}.`,
    );
  if (!seller.vatNumber.trim())
    throw new VatSettingsError("A seller registered for VAT needs its VAT number in the settings.");
  const own = checkVatNumber(home, seller.vatNumber);
  if (!own.ok) throw new VatSettingsError(`The seller's VAT number is not of its country's form: ${own.message}`);

  const typed = buyer.country.trim().toUpperCase();
  const known = vatCountry(typed);
  const where = known ?? (/^[A-Z]{2}$/.test(typed) ? "elsewhere" : home);
  const outsideNote = home === "GB" ? OUTSIDE_UK_VAT_NOTE : OUTSIDE_EU_VAT_NOTE;
  if (where === "elsewhere" || (where === "GB" && home !== "GB")) return untaxed("outside-scope", outsideNote);

  // A number is a business's only with the country it belongs to; a buyer whose country is not known is taxed at home.
  const number = buyer.vatNumber?.trim() ? buyer.vatNumber : null;
  if (known && number) {
    const checked = checkVatNumber(known, number);
    if (!checked.ok) throw new InvalidVatNumberError(checked.message);
  }

  const at = (country: VatCountry, treatment: TaxTreatment): Tax => {
    const rate = standardRate(country, date).basisPoints;
    return {
      ...charged(price.cents, rate, seller.pricesIncludeVat),
      currency: price.currency,
      rateBasisPoints: rate,
      rateCountry: country,
      treatment,
      note: null,
    };
  };
  if (where === home) return at(home, "domestic");
  // The buyer is in a member state other than the seller's.
  if (number) return untaxed("reverse-charge", REVERSE_CHARGE_NOTE);
  if (seller.oss) return at(where, "oss");
  return isEuCountry(home) ? at(home, "domestic") : untaxed("outside-scope", OUTSIDE_UK_VAT_NOTE);
}

/** A rate for people, as the invoice and the order summary print it: 2000 → "20%", 2550 → "25.5%". */
export function rateText(basisPoints: number): string {
  if (!Number.isSafeInteger(basisPoints) || basisPoints < 0)
    throw new RangeError(`not a rate in basis points: ${basisPoints}`);
  const whole = Math.floor(basisPoints / 100);
  const fraction = String(basisPoints % 100)
    .padStart(2, "0")
    .replace(/0+$/, "");
  return fraction ? `${whole}.${fraction}%` : `${whole}%`;
}
