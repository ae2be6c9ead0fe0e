import { countryCodeOf, countryName } from "#domain/countries.ts";
import { taxSellerOf, type MoneySettings } from "#domain/money-settings.ts";
import { orderPrice } from "#domain/order-price.ts";
import { InvalidVatNumberError, VatSettingsError } from "#domain/tax.ts";
import { checkVatNumber } from "#domain/vat-number.ts";
import { MissingVatRateError } from "#domain/vat-rates.ts";
import { AppError, badRequest } from "#server/lib/errors.ts";

/**
 * An order's price and VAT as it is placed (decision 072), with the buyer's country as the order keeps it (the list's
 * name for a code or a name it knows; else as typed, taxed where the seller is) and their VAT number as checked: a 400
 * naming the expected form when it is not one of the buyer's country; a 503 when the settings cannot tax the sale. The
 * one path of every new order's tax: the customer's own (`place`) and a sale made by hand (`sell`), whose typed price
 * stands where the package's would (net or gross as the money settings say).
 */
export function priceOf(
  money: MoneySettings,
  fields: { customerCountry: string; customerVatNumber: string | null },
  listPrice: number | string,
  discountedPrice: number | null,
  day: string,
) {
  const code = countryCodeOf(fields.customerCountry);
  const country = (code && countryName(code)) || fields.customerCountry;
  let vatNumber: string | null = null;
  if (fields.customerVatNumber) {
    const checked = checkVatNumber(code ?? "", fields.customerVatNumber);
    if (!checked.ok) throw badRequest([{ field: "customerVatNumber", message: checked.message }]);
    vatNumber = checked.normalized;
  }
  try {
    const price = orderPrice({
      seller: taxSellerOf(money),
      currency: money.currency,
      buyer: { country: code ?? "", vatNumber },
      listPrice,
      discountedPrice,
      day,
    });
    return { price, vatNumber, country, code };
  } catch (error) {
    if (error instanceof InvalidVatNumberError)
      throw badRequest([{ field: "customerVatNumber", message: error.message }]);
    if (error instanceof VatSettingsError || error instanceof MissingVatRateError)
      throw new AppError(503, `Orders can’t be placed just now: ${error.message}`);
    throw error;
  }
}
