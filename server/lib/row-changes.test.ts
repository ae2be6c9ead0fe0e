import { describe, expect, it } from "vitest";
import { changedColumns } from "./row-changes";

describe("changedColumns", () => {
  const row = {
    status: "active",
    signedUpAt: new Date("2026-11-01T10:00:00Z"),
    cancelledAt: null as Date | null,
    cancelledBy: null as string | null,
    packageIds: ["a", "b"],
    value: 10,
  };

  it("finds nothing when every value is as stored (dates compared by instant, arrays by value)", () => {
    expect(
      changedColumns(row, {
        status: "active",
        signedUpAt: new Date("2026-11-01T10:00:00.000Z"),
        cancelledAt: null,
        packageIds: ["a", "b"],
        value: 10,
      }),
    ).toEqual([]);
  });

  it("names each column whose value differs, audited or not", () => {
    expect(
      changedColumns(row, {
        status: "active",
        cancelledBy: "PayPal",
        signedUpAt: new Date("2026-11-01T10:00:00.001Z"),
        packageIds: ["b", "a"],
        value: 12,
      }),
    ).toEqual(["cancelledBy", "signedUpAt", "packageIds", "value"]);
  });

  it("tells a date from null both ways, and leaves a key given as undefined unset", () => {
    expect(changedColumns(row, { cancelledAt: new Date(0) })).toEqual(["cancelledAt"]);
    expect(changedColumns(row, { signedUpAt: null as unknown as Date })).toEqual(["signedUpAt"]);
    expect(changedColumns(row, { status: undefined })).toEqual([]);
  });
});
