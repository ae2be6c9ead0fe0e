import { describe, expect, it } from "vitest";
import {
  DEFAULT_MONEY_SETTINGS,
  moneySettingsProblems,
  moneySettingsSchema,
  readMoneySettings,
} from "./money-settings";

describe("the money settings (issue 35 part 1, decision 072)", () => {
  it("default to the spec's: US dollars, not registered for VAT", () => {
    expect(DEFAULT_MONEY_SETTINGS).toMatchObject({ currency: "USD", vatRegistered: false, vatNumber: "" });
    expect(readMoneySettings(undefined)).toEqual(DEFAULT_MONEY_SETTINGS);
  });

  it("read a form's values: boxes as on/absent, the VAT number as invoices print it", () => {
    const parsed = moneySettingsSchema.parse({
      currency: "GBP",
      sellerCountry: "uk",
      vatRegistered: "on",
      vatNumber: "gb 123.4567-89",
      oss: "on",
    });
    expect(parsed).toEqual({
      currency: "GBP",
      sellerCountry: "GB",
      vatRegistered: true,
      vatNumber: "GB123456789",
      pricesIncludeVat: false,
      oss: true,
    });
  });

  it("refuse a registered seller without a number, a number of another form, a country outside the UK and the EU", () => {
    const issues = (value: object) =>
      moneySettingsSchema
        .safeParse({ currency: "GBP", sellerCountry: "GB", ...value })
        .error?.issues.map((i) => [i.path.join("."), i.message]);
    expect(issues({ vatRegistered: true })).toEqual([
      ["vatNumber", "A business registered for VAT needs its VAT number"],
    ]);
    expect(issues({ vatNumber: "GB12" })?.[0]?.[1]).toMatch(/^A UK VAT number is GB followed by/);
    expect(issues({ sellerCountry: "US" })?.[0]?.[0]).toBe("sellerCountry");
    expect(issues({ currency: "JPY" })?.[0]?.[0]).toBe("currency");
  });

  it("read a stored record that no longer parses as the defaults, never half of it", () => {
    expect(readMoneySettings({ currency: "JPY" })).toEqual(DEFAULT_MONEY_SETTINGS);
    expect(readMoneySettings({ currency: "EUR" })).toEqual({ ...DEFAULT_MONEY_SETTINGS, currency: "EUR" });
  });

  it("name a rate the table lacks on the day as an error on its field, never a silent 0 %", () => {
    const registered = { ...DEFAULT_MONEY_SETTINGS, vatRegistered: true, vatNumber: "GB123456789" };
    expect(moneySettingsProblems(registered, "2026-11-28")).toEqual([]);
    expect(moneySettingsProblems({ ...registered, oss: true }, "2026-11-28")).toEqual([]);
    expect(moneySettingsProblems(registered, "2019-06-01")).toEqual([
      {
        field: "sellerCountry",
        message: "No standard VAT rate is known for the United Kingdom on 2019-06-01: the rates table needs it",
      },
    ]);
    const oss = moneySettingsProblems({ ...registered, oss: true }, "2019-06-01");
    expect(oss.map((p) => p.field)).toEqual(["sellerCountry", "oss"]);
    expect(oss[1]!.message).toContain("France");
    // Not registered: no VAT, so no rate is needed.
    expect(moneySettingsProblems(DEFAULT_MONEY_SETTINGS, "2019-06-01")).toEqual([]);
  });
});
