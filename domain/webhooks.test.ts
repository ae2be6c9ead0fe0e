import { describe, expect, it } from "vitest";
import {
  RETRY_SCHEDULE_SECONDS,
  endpointSchema,
  outcomeOf,
  pausesNow,
  retryDelay,
  subscribes,
  urlProblem,
} from "./webhooks";

describe("retryDelay", () => {
  it("follows Standard Webhooks' schedule: 5 s, 5 min, 30 min, 2 h, 5 h, 10 h, 10 h after the first attempt", () => {
    expect([1, 2, 3, 4, 5, 6, 7].map((n) => retryDelay(n))).toEqual([5, 300, 1800, 7200, 18000, 36000, 36000]);
  });
  it("gives up after the eighth attempt, about 28 hours after the first", () => {
    expect(retryDelay(8)).toBeNull();
    expect(RETRY_SCHEDULE_SECONDS.reduce((a, b) => a + b, 0) / 3600).toBeCloseTo(27.6, 1);
  });
  it("reads a configured schedule (tests: short waits)", () => {
    expect(retryDelay(1, [0, 0, 1])).toBe(0);
    expect(retryDelay(2, [0, 0, 1])).toBe(1);
    expect(retryDelay(3, [0, 0, 1])).toBeNull();
  });
  it("counts attempts made from 1", () => {
    expect(() => retryDelay(0)).toThrow();
  });
});

describe("outcomeOf", () => {
  it("delivers on any 2xx", () => {
    expect([200, 201, 204, 299].map(outcomeOf)).toEqual(["succeeded", "succeeded", "succeeded", "succeeded"]);
  });
  it("stops on 410 Gone", () => {
    expect(outcomeOf(410)).toBe("gone");
  });
  it("retries redirects, other 4xx, 5xx and no answer", () => {
    expect([301, 302, 400, 404, 429, 500, 503, null].map(outcomeOf)).toEqual(Array(8).fill("retry"));
  });
});

describe("pausesNow", () => {
  const now = new Date("2026-11-29T12:00:00Z");
  it("pauses an endpoint failing for 5 days, not one failing for less or not failing", () => {
    expect(pausesNow(new Date("2026-11-24T12:00:00Z"), now)).toBe(true);
    expect(pausesNow(new Date("2026-11-24T12:00:01Z"), now)).toBe(false);
    expect(pausesNow(null, now)).toBe(false);
  });
});

describe("urlProblem", () => {
  it("takes https addresses", () => {
    expect(urlProblem("https://hooks.example.com/in?x=1", false)).toBeNull();
  });
  it("refuses http unless local testing allows it", () => {
    expect(urlProblem("http://hooks.example.com/", false)).toBe("The address must start with https://");
    expect(urlProblem("http://127.0.0.1:4000/", true)).toBeNull();
  });
  it("refuses other schemes, credentials and non-addresses", () => {
    expect(urlProblem("ftp://example.com/", true)).toMatch(/https/);
    expect(urlProblem("https://user:pw@example.com/", false)).toMatch(/user name or password/);
    expect(urlProblem("example.com/hook", false)).toMatch(/full address/);
  });
});

describe("endpointSchema", () => {
  it("keeps known events, sorted once each; 'all' stands alone", () => {
    const parsed = endpointSchema.parse({
      url: " https://x.example/ ",
      events: ["order.paid", "order.placed", "order.paid"],
    });
    expect(parsed).toEqual({ url: "https://x.example/", description: "", events: ["order.paid", "order.placed"] });
    expect(endpointSchema.parse({ url: "https://x.example/", events: ["order.paid", "all"] }).events).toEqual(["all"]);
    expect(endpointSchema.parse({ url: "https://x.example/", events: "order.paid" }).events).toEqual(["order.paid"]);
  });
  it("refuses no event and unknown ones with a sentence", () => {
    expect(endpointSchema.safeParse({ url: "https://x.example/", events: [] }).error?.issues[0]?.message).toBe(
      "Choose at least one event",
    );
    expect(
      endpointSchema.safeParse({ url: "https://x.example/", events: ["order.eaten"] }).error?.issues[0]?.message,
    ).toBe("Unknown event: order.eaten");
  });
});

describe("subscribes", () => {
  it("matches the event or all", () => {
    expect(subscribes(["order.paid"], "order.paid")).toBe(true);
    expect(subscribes(["order.paid"], "order.placed")).toBe(false);
    expect(subscribes(["all"], "customer.erased")).toBe(true);
  });
});
