import { describe, expect, it } from "vitest";
import { formatOrderNumber, normalOrderNumber } from "./order-number";

describe("order numbers", () => {
  it("are the year and a sequence of at least five digits", () => {
    expect(formatOrderNumber(2026, 123)).toBe("AN-2026-00123");
    expect(formatOrderNumber(2027, 1)).toBe("AN-2027-00001");
    expect(formatOrderNumber(2026, 1234567)).toBe("AN-2026-1234567");
  });
  it("are recognised as typed, in any case, with spaces around", () => {
    expect(normalOrderNumber(" an-2026-00123 ")).toBe("AN-2026-00123");
    expect(normalOrderNumber("AN-2026-123")).toBeNull();
    expect(normalOrderNumber("Nora Lindqvist")).toBeNull();
  });
});
