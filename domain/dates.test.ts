import { describe, expect, it } from "vitest";
import { dateTime, dayKey, formatDate, isTimeZone, longDate, monthName, usDate } from "./dates";

// 10:30 UTC on 22 November is already 23 November in Kiritimati (UTC+14): the zone decides, not the machine.
const moment = new Date("2026-11-22T10:30:00Z");

describe("the date formatter", () => {
  it("writes a moment in the given zone, whatever the machine's", () => {
    expect(longDate(moment, "UTC")).toBe("Nov 22, 2026");
    expect(longDate(moment, "Pacific/Kiritimati")).toBe("Nov 23, 2026");
    expect(longDate("2026-11-22T05:00:00Z", "Pacific/Honolulu")).toBe("Nov 21, 2026");
  });

  it("has the styles pages use", () => {
    expect(dateTime(moment, "UTC")).toBe("Nov 22, 2026, 10:30 AM");
    expect(dateTime(moment, "Europe/London")).toBe("Nov 22, 2026, 10:30 AM");
    expect(usDate(new Date("2026-03-04T10:00:00Z"), "UTC")).toBe("03/04/2026");
    expect(dayKey(moment, "Pacific/Kiritimati")).toBe("2026-11-23");
    expect(formatDate(moment.toISOString(), "UTC")).toBe("Nov 22, 2026");
  });

  it("names a calendar month without a zone", () => {
    expect(monthName("2026-03")).toBe("Mar");
    expect(monthName("2026-12")).toBe("Dec");
  });

  it("knows IANA zone names", () => {
    expect(isTimeZone("Europe/London")).toBe(true);
    expect(isTimeZone("UTC")).toBe(true);
    expect(isTimeZone("Mars/Olympus")).toBe(false);
  });
});
