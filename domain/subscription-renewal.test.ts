import { describe, expect, it } from "vitest";
import { cancelPlace, renewalOf, SUBSCRIPTION_STATUS_WORDS, type RenewingSubscription } from "./subscription-renewal";
import { SUBSCRIPTION_STATUSES } from "./subscription";

const at = (iso: string) => new Date(iso);
const sub = (over: Partial<RenewingSubscription> = {}): RenewingSubscription => ({
  status: "active",
  nextPaymentAt: at("2026-04-10T09:00:00Z"),
  nextAmount: 49,
  ...over,
});

describe("renewalOf", () => {
  it("is the active subscription's next payment and amount", () => {
    expect(renewalOf([sub()])).toEqual({ at: at("2026-04-10T09:00:00Z"), amount: 49 });
  });

  it("is none without subscriptions, after a cancellation or the end of term, or before the first payment", () => {
    expect(renewalOf([])).toBeNull();
    // A cancelled or ended one has no next payment in its view; even if it had, nothing renews it.
    expect(renewalOf([sub({ status: "cancelled" })])).toBeNull();
    expect(renewalOf([sub({ status: "ended" })])).toBeNull();
    expect(renewalOf([sub({ nextPaymentAt: null, nextAmount: null })])).toBeNull();
  });

  it("takes the earliest next payment among the active ones, whatever their order", () => {
    const later = sub({ nextPaymentAt: at("2026-05-01T00:00:00Z"), nextAmount: 99 });
    const sooner = sub({ nextPaymentAt: at("2026-04-01T00:00:00Z"), nextAmount: 29 });
    const cancelled = sub({ status: "cancelled", nextPaymentAt: at("2026-03-01T00:00:00Z"), nextAmount: 5 });
    for (const list of [
      [later, sooner, cancelled],
      [cancelled, sooner, later],
    ])
      expect(renewalOf(list)).toEqual({ at: sooner.nextPaymentAt, amount: 29 });
  });
});

describe("words and places", () => {
  it("names every status", () => {
    for (const s of SUBSCRIPTION_STATUSES) expect(SUBSCRIPTION_STATUS_WORDS[s]).toMatch(/^[A-Z]/);
  });

  it("sends a customer to PayPal's automatic payments page, or to the simulator locally", () => {
    expect(cancelPlace("live")).toMatchObject({ href: "https://www.paypal.com/myaccount/autopay/", external: true });
    expect(cancelPlace("sandbox")).toMatchObject({
      href: "https://www.sandbox.paypal.com/myaccount/autopay/",
      external: true,
    });
    expect(cancelPlace("simulator")).toMatchObject({ href: "/paypal-simulator", external: false });
  });
});
