/** Money in USD with two decimals: "49.00". */
export const money = (n: number) => n.toFixed(2);

/** A date for people, in the server's time zone when given: "Dec 22, 2026". */
export function longDate(iso: string | Date, timeZone?: string): string {
  return new Intl.DateTimeFormat("en-US", { timeZone, year: "numeric", month: "short", day: "numeric" }).format(
    new Date(iso),
  );
}
