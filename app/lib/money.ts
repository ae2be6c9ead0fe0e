import { useRouteLoaderData } from "react-router";
import { CURRENCY_SYMBOL, type Currency } from "#domain/currency.ts";
import { money } from "#domain/format.ts";

/**
 * The site's currency (the money settings, issue 35), as the root route's loader gives it to every page: totals and
 * figures summed over orders are in it (it cannot change once orders exist, decision 072); one order's amounts are in
 * the order's own `currency`.
 */
export function useCurrency(): Currency {
  return useRouteLoaderData<{ currency?: Currency }>("root")?.currency ?? "USD";
}

/** "$49.00", "£58.80": a decimal amount with its currency's symbol (no code). */
export const moneyIn = (amount: number, currency: Currency): string => `${CURRENCY_SYMBOL[currency]}${money(amount)}`;
