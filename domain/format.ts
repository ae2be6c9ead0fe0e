/** Money in USD with two decimals: "49.00". */
export const money = (n: number) => n.toFixed(2);

// Dates: domain/dates.ts (one formatter, in the site's time zone, shared with the server).
