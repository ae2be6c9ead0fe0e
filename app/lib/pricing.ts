import { CURRENCY_SYMBOL, type Currency } from "#domain/currency.ts";
import { PACKAGE_POINTS, type SectionRecord } from "#domain/registry.ts";

type Package = SectionRecord<"pricing">;

/** Premium carries the 'Popular' label and shows ten points; the other packages show seven (spec 1, sections 2 and 9). */
export function isPopular(pkg: Pick<Package, "packageName">): boolean {
  return pkg.packageName.trim().toLowerCase() === "premium";
}

export function visiblePoints(pkg: Package): string[] {
  const count = isPopular(pkg) ? 10 : 7;
  const record = pkg as unknown as Record<string, unknown>;
  return PACKAGE_POINTS.slice(0, count)
    .map((name) => record[name])
    .filter((v): v is string => typeof v === "string" && v.trim() !== "");
}

/** "$49" or "$49.50" (or "£49", "€49.50" in the site's currency): whole units without cents, otherwise two decimals. */
export function formatPrice(price: number, currency: Currency = "USD"): string {
  const symbol = CURRENCY_SYMBOL[currency];
  return Number.isInteger(price) ? `${symbol}${price}` : `${symbol}${price.toFixed(2)}`;
}
