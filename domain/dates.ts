/**
 * The one date formatter. Every date a person sees is written in the site's time zone (the TZ setting, handed to
 * pages as config.timeZone), never in the zone of whichever machine renders it: the server and the browser then print
 * the same text, and a page hydrates without a mismatch. ESLint forbids toLocale*String everywhere else.
 */

export type DateStyle =
  /** "Dec 22, 2026" */
  | "long"
  /** "Dec 22, 2026, 3:04 PM" */
  | "dateTime"
  /** "12/22/2026": the spec's order date (MM/DD/YYYY) */
  | "us"
  /** "2026-12-22": a sortable calendar date, for comparing days */
  | "key"
  /** "Dec" */
  | "month";

const OPTIONS: Record<DateStyle, { locale: string; options: Intl.DateTimeFormatOptions }> = {
  long: { locale: "en-US", options: { year: "numeric", month: "short", day: "numeric" } },
  dateTime: {
    locale: "en-US",
    options: { year: "numeric", month: "short", day: "numeric", hour: "numeric", minute: "2-digit" },
  },
  us: { locale: "en-US", options: { year: "numeric", month: "2-digit", day: "2-digit" } },
  key: { locale: "en-CA", options: { year: "numeric", month: "2-digit", day: "2-digit" } },
  month: { locale: "en-US", options: { month: "short" } },
};

// Building an Intl.DateTimeFormat costs far more than using one: one per style and zone, kept.
const formatters = new Map<string, Intl.DateTimeFormat>();

/** A moment (a Date or an ISO string, as loaders send dates) written in the given IANA time zone. */
export function formatDate(value: Date | string, timeZone: string, style: DateStyle = "long"): string {
  const key = `${style} ${timeZone}`;
  let formatter = formatters.get(key);
  if (!formatter) {
    const { locale, options } = OPTIONS[style];
    formatter = new Intl.DateTimeFormat(locale, { ...options, timeZone });
    formatters.set(key, formatter);
  }
  return formatter.format(typeof value === "string" ? new Date(value) : value);
}

/** "Dec 22, 2026" */
export const longDate = (value: Date | string, timeZone: string) => formatDate(value, timeZone, "long");
/** "Dec 22, 2026, 3:04 PM" */
export const dateTime = (value: Date | string, timeZone: string) => formatDate(value, timeZone, "dateTime");
/** "12/22/2026", the spec's order date. */
export const usDate = (value: Date | string, timeZone: string) => formatDate(value, timeZone, "us");
/** "2026-12-22": compare calendar days with < and >=. */
export const dayKey = (value: Date | string, timeZone: string) => formatDate(value, timeZone, "key");

/** "Mar" for the calendar month "2026-03" (a month is not a moment: no time zone applies). */
export function monthName(month: string): string {
  return formatDate(`${month}-15T12:00:00Z`, "UTC", "month");
}

/** Whether Intl knows this IANA time zone name ("Europe/London", "UTC"). */
export function isTimeZone(value: string): boolean {
  try {
    new Intl.DateTimeFormat("en-US", { timeZone: value });
    return true;
  } catch {
    return false;
  }
}

/** The zone this process runs in (the TZ environment variable, else the machine's). */
export const systemTimeZone = () => Intl.DateTimeFormat().resolvedOptions().timeZone;
