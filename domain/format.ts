/** Money in USD with two decimals: "49.00". */
export const money = (n: number) => n.toFixed(2);

// Dates: domain/dates.ts (one formatter, in the site's time zone, shared with the server).

/** A whole number with thousands separators: "1,234,567". */
export const count = (n: number) => String(Math.trunc(n)).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

/** A file's size for people: "840 KB", "12.3 MB", "1.20 GB". */
export function fileSize(bytes: number): string {
  if (bytes < 1024 * 1024) return `${Math.max(1, Math.round(bytes / 1024))} KB`;
  if (bytes < 1024 ** 3) return `${(bytes / 1024 ** 2).toFixed(1)} MB`;
  return `${(bytes / 1024 ** 3).toFixed(2)} GB`;
}
