import { describe, expect, it } from "vitest";
import {
  ADMIN_PAYMENT_STATUSES,
  categories,
  categoryLabel,
  itemFormats,
  jobStatuses,
  jobStatusOf,
  orderStatuses,
  paymentStatuses,
  sentence,
} from "./vocabulary";

describe("vocabularies", () => {
  it("hold the spec's values in a fixed order", () => {
    expect(paymentStatuses.values).toEqual(["UnPaid", "Paid", "Cancelled", "Refunded"]);
    expect(ADMIN_PAYMENT_STATUSES).toEqual(["Paid", "UnPaid", "Refunded"]);
    expect(orderStatuses.values).toEqual(["Pending", "Delivered"]);
    expect(itemFormats.values).toEqual(["Facebook", "Instagram", "YouTube"]);
    expect(categories.values).toHaveLength(5);
  });

  it("know their own values only", () => {
    expect(paymentStatuses.includes("Paid")).toBe(true);
    expect(paymentStatuses.includes("paid")).toBe(false);
    expect(paymentStatuses.includes(undefined)).toBe(false);
    expect(categories.includes("web-design")).toBe(true);
  });

  it("give each value its badge tone", () => {
    expect(paymentStatuses.values.map(paymentStatuses.tone)).toEqual(["amber", "green", "grey", "red"]);
    expect(orderStatuses.values.map(orderStatuses.tone)).toEqual(["blue", "green"]);
  });

  it("make select options, for all values or a subset in its order", () => {
    expect(paymentStatuses.options(ADMIN_PAYMENT_STATUSES)).toEqual([
      { value: "Paid", label: "Paid" },
      { value: "UnPaid", label: "UnPaid" },
      { value: "Refunded", label: "Refunded" },
    ]);
    expect(categories.options().at(0)).toEqual({ value: "web-design", label: "WEB DESIGN" });
  });

  it("write a list for a sentence", () => {
    expect(sentence(["Paid", "UnPaid", "Refunded"])).toBe("Paid, UnPaid or Refunded");
    expect(sentence(["Admin"])).toBe("Admin");
    expect(orderStatuses.sentence()).toBe("Pending or Delivered");
  });

  it("label a category key, file name or address as the file name in capitals with spaces", () => {
    expect(categoryLabel("web-design")).toBe("WEB DESIGN");
    expect(categoryLabel("facebook-marketing.json")).toBe("FACEBOOK MARKETING");
    expect(categoryLabel("https://files.example/data/seo-service.json")).toBe("SEO SERVICE");
  });
});

describe("job statuses", () => {
  it("name each waiting, retrying, running or failed pg-boss state", () => {
    expect(["created", "retry", "active", "failed"].map(jobStatusOf)).toEqual([
      "Waiting",
      "Retrying",
      "Running",
      "Failed",
    ]);
    expect(jobStatuses.values.map(jobStatuses.tone)).toEqual(["blue", "amber", "green", "red"]);
  });
});
