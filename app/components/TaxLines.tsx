import { amountWithCode, centsOf, type Currency } from "#domain/currency.ts";
import { rateText, type TaxTreatment } from "#domain/tax.ts";
import { COUNTRY_NAME, vatCountry } from "#domain/vat-rates.ts";

/** An order's VAT as the pages show it (issue 35): what domain/tax.ts decided, fixed on the order when placed. */
export interface TaxShown {
  currency: Currency;
  netCents: number;
  taxCents: number;
  grossCents: number;
  rateBasisPoints: number;
  /** Whose rate it is (null when no VAT is charged). */
  rateCountry: string | null;
  treatment: TaxTreatment;
  note: string | null;
}

/** "VAT at 20% (United Kingdom)". */
export function vatLabel(tax: Pick<TaxShown, "rateBasisPoints" | "rateCountry">): string {
  const country = vatCountry(tax.rateCountry);
  const name = country ? COUNTRY_NAME[country].replace(/^the /, "") : null;
  return `VAT at ${rateText(tax.rateBasisPoints)}${name ? ` (${name.charAt(0).toUpperCase()}${name.slice(1)})` : ""}`;
}

/**
 * The net, VAT and total rows of a summary (term/description pairs for the page's own `<dl>` grid), and the legal
 * note; nothing for a seller not registered for VAT, whose pages show the price alone as the spec does.
 */
export function TaxLines({ tax, testId = "tax" }: { tax: TaxShown; testId?: string }) {
  if (tax.treatment === "not-registered") return null;
  return (
    <>
      <dt className="text-mist">Net</dt>
      <dd data-testid={`${testId}-net`}>{amountWithCode(tax.netCents, tax.currency)}</dd>
      <dt className="text-mist">{tax.taxCents || tax.rateBasisPoints ? vatLabel(tax) : "VAT"}</dt>
      <dd data-testid={`${testId}-vat`}>{amountWithCode(tax.taxCents, tax.currency)}</dd>
      <dt className="text-mist">Total</dt>
      <dd data-testid={`${testId}-total`} className="font-semibold">
        {amountWithCode(tax.grossCents, tax.currency)}
      </dd>
      {tax.note ? (
        <dd data-testid={`${testId}-note`} className="text-xs text-mist sm:col-start-2">
          {tax.note}
        </dd>
      ) : null}
    </>
  );
}

/** What the pages read of an order (its REST record). */
export function orderTaxShown(order: {
  currency: Currency;
  packagePrice: number;
  tax: {
    netCents: number;
    taxCents: number;
    rateBasisPoints: number;
    country: string | null;
    treatment: TaxTreatment;
    note: string | null;
  };
}): TaxShown {
  const { country, ...tax } = order.tax;
  return { ...tax, currency: order.currency, grossCents: centsOf(order.packagePrice), rateCountry: country };
}

/** An order's amount as the spec writes it: "$49.00 USD" (in the order's own currency). */
export const orderAmount = (amount: number, currency: Currency) => amountWithCode(centsOf(amount), currency);
