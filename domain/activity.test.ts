import { describe, expect, it } from "vitest";
import { ACTIVITY_KINDS, activityFiltersFromSearch, activityKind, shownValue } from "./activity";

describe("activity kinds", () => {
  it("names a content record by its section, its fields by their labels, and links to its edit screen", () => {
    const faq = activityKind("content:faqItem");
    expect(faq.title).toBe("FAQ Item");
    expect(faq.label("accodingTitle")).toBe("Question");
    expect(faq.label("position")).toBe("Position in the list");
    expect(faq.recordTitle({ accodingTitle: "Do you work abroad?", accodingText: "Yes" }, "x")).toBe(
      "Do you work abroad?",
    );
    expect(faq.href?.("abc")).toBe("/faq-edit/abc");
  });

  it("knows orders, messages, settings and the rest; an unknown kind shows its raw name", () => {
    const order = activityKind("order");
    expect(order.label("paymentStatus")).toBe("Payment Status");
    expect(order.recordTitle({ customerName: "Nora", packageName: "Basic" }, "x")).toBe("Nora · Basic");
    expect(order.href?.("o1")).toBe("/admin/payment-status/o1");
    expect(activityKind("setting").recordTitle({}, "autoActivate")).toBe(
      "Activate memberships automatically when a payment is verified",
    );
    expect(activityKind("media").label("alt")).toBe("Alt text");
    expect(activityKind("webhook").title).toBe("webhook");
    expect(activityKind("webhook").href).toBeUndefined();
    expect(new Set(ACTIVITY_KINDS.map((k) => k.entity)).size).toBe(ACTIVITY_KINDS.length);
  });

  it("shows values for people: empty, on/off, a category's label, a moment in the site's time zone", () => {
    expect(shownValue("x", null, "UTC")).toBe("(empty)");
    expect(shownValue("x", "", "UTC")).toBe("(empty)");
    expect(shownValue("autoActivate", true, "UTC")).toBe("On");
    expect(shownValue("itemDatabaseUrl", "web-design", "UTC")).toBe("WEB DESIGN");
    expect(shownValue("membershipValid", "2026-12-22T12:31:53.023Z", "America/New_York")).toBe("Dec 22, 2026, 7:31 AM");
    expect(shownValue("x", "2026-12-22", "UTC")).toBe("2026-12-22");
    expect(shownValue("x", { a: 1 }, "UTC")).toBe('{"a":1}');
  });

  it("reads its filters from the address, ignoring what does not parse", () => {
    expect(
      activityFiltersFromSearch(new URLSearchParams("who=a@example.org&kind=order&from=2026-11-01&to=nope&page=2")),
    ).toEqual({ who: "a@example.org", kind: "order", from: "2026-11-01" });
  });
});
