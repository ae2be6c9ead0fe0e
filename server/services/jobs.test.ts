import { describe, expect, it } from "vitest";
import { errorOf, isJobKey, jobKey } from "./jobs";

describe("job keys", () => {
  it("joins a kind and its parts", () => {
    expect(jobKey("order-paid", "9f1c2d3e-0000-4000-8000-000000000001")).toBe(
      "order-paid:9f1c2d3e-0000-4000-8000-000000000001",
    );
    expect(jobKey("membership-ends", 42, "2026-11-29")).toBe("membership-ends:42:2026-11-29");
    expect(jobKey("newsletter-confirm", "ann+news@example.org")).toBe("newsletter-confirm:ann+news@example.org");
  });

  it("refuses keys that are empty, spaced, too long or of an unknown shape", () => {
    expect(() => jobKey("Order")).toThrow(/Not a valid job key/);
    expect(() => jobKey("order", "")).toThrow();
    expect(() => jobKey("order", "a b")).toThrow();
    expect(() => jobKey("order", "x".repeat(121))).toThrow();
    expect(() => jobKey("order", 1, 2, 3, 4, 5)).toThrow();
    expect(isJobKey("order:1")).toBe(true);
    expect(isJobKey("order:1\n")).toBe(false);
  });
});

describe("a failed job's reason", () => {
  it("is the message pg-boss stored as its output", () => {
    expect(errorOf({ name: "Error", message: "Can't send mail - all recipients were rejected", stack: "…" })).toBe(
      "Can't send mail - all recipients were rejected",
    );
    expect(errorOf({ value: "plain" })).toBe("plain");
    // pg-boss's own reasons, in words: a job whose worker stopped (the app killed), one past its time limit.
    expect(errorOf({ value: { message: "job heartbeat timeout" } })).toBe(
      "The app running it stopped (a crash or a restart) before it finished.",
    );
    expect(errorOf({ value: { message: "job timed out" } })).toBe("It ran longer than its time limit and was stopped.");
    expect(errorOf(null)).toBeNull();
    expect(errorOf({})).toBeNull();
  });
});
