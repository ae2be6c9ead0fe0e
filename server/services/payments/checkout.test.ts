import { describe, expect, it } from "vitest";
import { AppError } from "#server/lib/errors.ts";
import { PROVIDER_DOWN, throwStartFailure } from "./checkout";
import { providerFailed, ProviderRefusedError, ProviderUnavailableError } from "./provider";

class Refused extends ProviderRefusedError {
  readonly status = 422;
  readonly refusal = "The currency is not supported.";
}

/** What the helper throws, as a rejection. */
const thrown = async (...args: Parameters<typeof throwStartFailure>) => throwStartFailure(...args);

describe("a provider's failure to start a payment or a subscription", () => {
  it("not answering: 503, nothing was charged", async () => {
    for (const what of ["payment", "subscription"] as const) {
      const down = thrown(new ProviderUnavailableError("timed out"), what);
      await expect(down).rejects.toBeInstanceOf(AppError);
      await expect(down).rejects.toMatchObject({ status: 503, message: PROVIDER_DOWN });
    }
  });

  it("refusing: 502 with the provider's words, naming what was started", async () => {
    await expect(thrown(new Refused(), "payment")).rejects.toMatchObject({
      status: 502,
      message: "PayPal refused to start the payment: The currency is not supported. Please try again.",
    });
    await expect(thrown(new Refused(), "subscription")).rejects.toMatchObject({
      status: 502,
      message: "PayPal refused to start the subscription: The currency is not supported. Please try again.",
    });
  });

  it("anything else is thrown as it came", async () => {
    const ours = new Error("the database is away");
    await expect(thrown(ours, "payment")).rejects.toBe(ours);
  });

  it("tells the provider's failures from ours", () => {
    expect(providerFailed(new Refused())).toBe(true);
    expect(providerFailed(new ProviderUnavailableError("down"))).toBe(true);
    expect(providerFailed(new Error("ours"))).toBe(false);
    expect(providerFailed(new AppError(503, "ours"))).toBe(false);
  });
});
