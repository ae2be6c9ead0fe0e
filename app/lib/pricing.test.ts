import { describe, expect, it } from "vitest";
import { formatPrice, isPopular, visiblePoints } from "./pricing";

const pkg = (name: string, points: number) =>
  ({
    _id: "x",
    packageName: name,
    packagePrice: 10,
    packageValidity: 30,
    packageButtonText: "Go",
    ...Object.fromEntries(
      ["One", "Two", "Three", "Four", "Five", "Six", "Seven", "Eight", "Nine", "Ten"]
        .slice(0, points)
        .map((n, i) => [`packagePoint${n}`, `point ${i + 1}`]),
    ),
  }) as never;

describe("pricing rules", () => {
  it("marks Premium as popular, whatever its case", () => {
    expect(isPopular({ packageName: "Premium" })).toBe(true);
    expect(isPopular({ packageName: " premium " })).toBe(true);
    expect(isPopular({ packageName: "Standard" })).toBe(false);
  });

  it("shows seven points for Basic and Standard even when ten are filled", () => {
    expect(visiblePoints(pkg("Basic", 10))).toHaveLength(7);
    expect(visiblePoints(pkg("Standard", 7))).toEqual([
      "point 1",
      "point 2",
      "point 3",
      "point 4",
      "point 5",
      "point 6",
      "point 7",
    ]);
  });

  it("shows ten points for Premium and skips empty ones", () => {
    expect(visiblePoints(pkg("Premium", 10))).toHaveLength(10);
    expect(visiblePoints(pkg("Premium", 8))).toHaveLength(8);
  });

  it("formats prices with a dollar sign", () => {
    expect(formatPrice(49)).toBe("$49");
    expect(formatPrice(49.5)).toBe("$49.50");
  });
});
