/**
 * A moment typed as a wall-clock time in the site's time zone (an `<input type="datetime-local">`, "2026-12-01T09:30")
 * and back. The site's zone is the app's TZ (domain/dates.ts, decision 012), so a time staff type means the same
 * moment whatever the browser's zone is.
 */

const LOCAL = /^(\d{4})-(\d{2})-(\d{2})T(\d{2}):(\d{2})(?::(\d{2}))?$/;

/** The wall-clock fields a moment shows in `timeZone`, as if they were UTC (milliseconds). */
function wallClockAsUtc(moment: Date, timeZone: string): number {
  const parts = Object.fromEntries(
    new Intl.DateTimeFormat("en-GB", {
      timeZone,
      hourCycle: "h23",
      year: "numeric",
      month: "2-digit",
      day: "2-digit",
      hour: "2-digit",
      minute: "2-digit",
      second: "2-digit",
    })
      .formatToParts(moment)
      .map((p) => [p.type, p.value]),
  );
  return Date.UTC(+parts.year!, +parts.month! - 1, +parts.day!, +parts.hour!, +parts.minute!, +parts.second!);
}

/**
 * The moment a wall-clock time in `timeZone` names; null for text that is no such time. A time the clocks skip (spring
 * forward) is read an hour later; one they pass twice (autumn), the first of the two.
 */
export function fromZonedTime(local: string, timeZone: string): Date | null {
  const m = LOCAL.exec(local.trim());
  if (!m) return null;
  const [y, mo, d, h, mi, s] = m.slice(1).map((part) => Number(part ?? 0)) as [
    number,
    number,
    number,
    number,
    number,
    number,
  ];
  const asUtc = Date.UTC(y, mo - 1, d, h, mi, s);
  const check = new Date(asUtc);
  if (check.getUTCMonth() !== mo - 1 || check.getUTCDate() !== d || h > 23 || mi > 59) return null;
  // The zone's offsets half a day either side: a moment that shows this wall-clock time has one of them.
  const HALF_DAY = 12 * 3600_000;
  const candidates = [asUtc - HALF_DAY, asUtc + HALF_DAY].map(
    (t) => asUtc - (wallClockAsUtc(new Date(t), timeZone) - t),
  );
  const shown = candidates.filter((c) => wallClockAsUtc(new Date(c), timeZone) === asUtc);
  return new Date(shown.length ? Math.min(...shown) : Math.max(...candidates));
}

/** A moment as the wall-clock value of a datetime-local input in `timeZone` ("2026-12-01T09:30"). */
export function toZonedInput(moment: Date | string, timeZone: string): string {
  return new Date(wallClockAsUtc(new Date(moment), timeZone)).toISOString().slice(0, 16);
}
