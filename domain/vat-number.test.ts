import fc from "fast-check";
import { describe, expect, it } from "vitest";
import { checkVatNumber, VAT_NUMBER_FORMS, vatNumberForm } from "./vat-number";
import { VAT_COUNTRIES, type VatCountry } from "./vat-rates";

const runs = { numRuns: Number(process.env.FC_RUNS ?? 2000) };

/** Each country's sentence (as the refusals say it) and numbers of its form, typed as people type them. */
const CASES: Record<VatCountry, { sentence: string; good: string[]; bad: string[] }> = {
  GB: {
    sentence: "A UK VAT number is GB followed by 9 or 12 digits, or by GD or HA and 3 digits (GB123456789).",
    good: ["GB123456789", "GB123456789012", "GBGD001", "GBHA599", "gb 123 4567 89", "123456789", "GD123"],
    bad: ["GB12345678", "GB1234567890", "GBGD12", "GBXX123", "GB12345678A"],
  },
  AT: {
    sentence: "An Austrian VAT number is ATU followed by 8 digits (ATU12345678).",
    good: ["ATU12345678", "atu 1234 5678", "U12345678"],
    bad: ["AT12345678", "ATU1234567", "ATU123456789"],
  },
  BE: {
    sentence: "A Belgian VAT number is BE followed by 10 digits, the first 0 or 1 (BE0123456789).",
    good: ["BE0123456789", "BE1234567890", "BE 0123.456.789", "0123456789"],
    bad: ["BE123456789", "BE2123456789", "BE01234567890"],
  },
  BG: {
    sentence: "A Bulgarian VAT number is BG followed by 9 or 10 digits (BG123456789).",
    good: ["BG123456789", "BG1234567890"],
    bad: ["BG12345678", "BG12345678901"],
  },
  HR: {
    sentence: "A Croatian VAT number is HR followed by 11 digits (HR12345678901).",
    good: ["HR12345678901"],
    bad: ["HR1234567890", "HR123456789012"],
  },
  CY: {
    sentence: "A Cypriot VAT number is CY followed by 8 digits and a letter (CY12345678L).",
    good: ["CY12345678L", "cy12345678x"],
    bad: ["CY123456789", "CY1234567L"],
  },
  CZ: {
    sentence: "A Czech VAT number is CZ followed by 8, 9 or 10 digits (CZ12345678).",
    good: ["CZ12345678", "CZ123456789", "CZ1234567890"],
    bad: ["CZ1234567", "CZ12345678901"],
  },
  DK: {
    sentence: "A Danish VAT number is DK followed by 8 digits (DK12345678).",
    good: ["DK12345678", "DK 12 34 56 78"],
    bad: ["DK1234567", "DK123456789"],
  },
  EE: {
    sentence: "An Estonian VAT number is EE followed by 9 digits (EE123456789).",
    good: ["EE123456789"],
    bad: ["EE12345678", "EE1234567890"],
  },
  FI: {
    sentence: "A Finnish VAT number is FI followed by 8 digits (FI12345678).",
    good: ["FI12345678", "FI 1234567-8"],
    bad: ["FI1234567", "FI123456789"],
  },
  FR: {
    sentence: "A French VAT number is FR followed by 2 letters or digits and 9 digits (FR12345678901).",
    good: ["FR12345678901", "FRXX123456789", "FR 1A 123 456 789", "12345678901"],
    bad: ["FR1234567890", "FR123456789012", "FRX1234567890X"],
  },
  DE: {
    sentence: "A German VAT number is DE followed by 9 digits (DE123456789).",
    good: ["DE123456789", "de 123-456-789", "123456789"],
    bad: ["DE12345678", "DE1234567890", "DE12345678X"],
  },
  GR: {
    sentence: "A Greek VAT number is EL followed by 9 digits (EL123456789).",
    good: ["EL123456789", "el 123456789", "123456789"],
    bad: ["EL12345678", "EL1234567890"],
  },
  HU: {
    sentence: "A Hungarian VAT number is HU followed by 8 digits (HU12345678).",
    good: ["HU12345678"],
    bad: ["HU1234567", "HU123456789"],
  },
  IE: {
    sentence:
      "An Irish VAT number is IE followed by 7 digits and 1 or 2 letters, or by a digit, a letter or + or *, 5 digits and a letter (IE1234567T).",
    good: ["IE1234567T", "IE1234567WA", "IE1A23456T", "IE1+23456T", "IE1*23456T"],
    bad: ["IE123456T", "IE12345678", "IE1234567TAB", "IE1A234567"],
  },
  IT: {
    sentence: "An Italian VAT number is IT followed by 11 digits (IT12345678901).",
    good: ["IT12345678901"],
    bad: ["IT1234567890", "IT123456789012"],
  },
  LV: {
    sentence: "A Latvian VAT number is LV followed by 11 digits (LV12345678901).",
    good: ["LV12345678901"],
    bad: ["LV1234567890", "LV123456789012"],
  },
  LT: {
    sentence: "A Lithuanian VAT number is LT followed by 9 or 12 digits (LT123456789).",
    good: ["LT123456789", "LT123456789012"],
    bad: ["LT1234567890", "LT12345678901", "LT12345678"],
  },
  LU: {
    sentence: "A Luxembourg VAT number is LU followed by 8 digits (LU12345678).",
    good: ["LU12345678"],
    bad: ["LU1234567", "LU123456789"],
  },
  MT: {
    sentence: "A Maltese VAT number is MT followed by 8 digits (MT12345678).",
    good: ["MT12345678"],
    bad: ["MT1234567", "MT123456789"],
  },
  NL: {
    sentence: "A Dutch VAT number is NL followed by 9 digits, the letter B and 2 digits (NL123456789B01).",
    good: ["NL123456789B01", "nl 1234.56.789.b.01"],
    bad: ["NL123456789", "NL123456789B1", "NL12345678B01", "NL123456789X01"],
  },
  PL: {
    sentence: "A Polish VAT number is PL followed by 10 digits (PL1234567890).",
    good: ["PL1234567890", "PL 123-456-78-90"],
    bad: ["PL123456789", "PL12345678901"],
  },
  PT: {
    sentence: "A Portuguese VAT number is PT followed by 9 digits (PT123456789).",
    good: ["PT123456789"],
    bad: ["PT12345678", "PT1234567890"],
  },
  RO: {
    sentence: "A Romanian VAT number is RO followed by 2 to 10 digits (RO1234567890).",
    good: ["RO12", "RO123456", "RO1234567890"],
    bad: ["RO1", "RO12345678901"],
  },
  SK: {
    sentence: "A Slovak VAT number is SK followed by 10 digits (SK1234567890).",
    good: ["SK1234567890"],
    bad: ["SK123456789", "SK12345678901"],
  },
  SI: {
    sentence: "A Slovenian VAT number is SI followed by 8 digits (SI12345678).",
    good: ["SI12345678"],
    bad: ["SI1234567", "SI123456789"],
  },
  ES: {
    sentence:
      "A Spanish VAT number is ES followed by 9 characters: a letter or digit, 7 digits, a letter or digit, not both digits (ESB12345678).",
    good: ["ESB12345678", "ES12345678Z", "ESX1234567L", "es b-1234567-8"],
    bad: ["ES123456789", "ESB1234567", "ESB123456789", "ESBB2345678"],
  },
  SE: {
    sentence: "A Swedish VAT number is SE followed by 12 digits (SE123456789001).",
    good: ["SE123456789001", "SE 556012-5790 01"],
    bad: ["SE12345678901", "SE1234567890123"],
  },
};

const compact = (typed: string) => typed.toUpperCase().replace(/[\s.-]/g, "");

describe("a buyer's VAT number, checked for its form (issue 35)", () => {
  it("every country of the VAT table has a form", () => {
    expect(Object.keys(VAT_NUMBER_FORMS).sort()).toEqual([...VAT_COUNTRIES].sort());
    expect(Object.keys(CASES).sort()).toEqual([...VAT_COUNTRIES].sort());
  });

  for (const country of VAT_COUNTRIES) {
    const { sentence, good, bad } = CASES[country];
    const prefix = VAT_NUMBER_FORMS[country].prefix;

    it(`${country}: its form is said in one sentence, and its example passes`, () => {
      expect(vatNumberForm(country)).toBe(sentence);
      const example = /\(([A-Z0-9]+)\)\.$/.exec(sentence)?.[1] ?? "";
      expect(checkVatNumber(country, example)).toEqual({ ok: true, normalized: example });
    });

    it(`${country}: numbers of its form pass, upper case, without spaces, dots or dashes, with the prefix`, () => {
      for (const typed of good) {
        const c = compact(typed);
        const normalized = c.startsWith(prefix) ? c : `${prefix}${c}`;
        expect(checkVatNumber(country, typed), typed).toEqual({ ok: true, normalized });
      }
    });

    it(`${country}: other forms are refused with the sentence of the expected form`, () => {
      for (const typed of bad) {
        expect(checkVatNumber(country, typed), typed).toEqual({ ok: false, message: sentence });
      }
    });
  }

  it("the country may be given any case, UK for GB and EL for Greece; GR typed before a Greek number is read as EL", () => {
    expect(checkVatNumber("uk", "GB 123456789")).toEqual({ ok: true, normalized: "GB123456789" });
    expect(checkVatNumber("el", "123456789")).toEqual({ ok: true, normalized: "EL123456789" });
    expect(checkVatNumber("GR", "GR123456789")).toEqual({ ok: true, normalized: "EL123456789" });
    expect(checkVatNumber(" de ", "DE123456789")).toEqual({ ok: true, normalized: "DE123456789" });
  });

  it("another country's prefix is refused with a sentence saying so", () => {
    expect(checkVatNumber("DE", "FR12345678901")).toEqual({
      ok: false,
      message:
        "FR starts a French VAT number, not a German one. A German VAT number is DE followed by 9 digits (DE123456789).",
    });
    expect(checkVatNumber("GB", "ATU12345678")).toEqual({
      ok: false,
      message:
        "AT starts an Austrian VAT number, not a UK one. A UK VAT number is GB followed by 9 or 12 digits, or by GD or HA and 3 digits (GB123456789).",
    });
    expect(checkVatNumber("AT", "DE123456789")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^DE starts a German VAT number, not an Austrian one\. /),
    });
    expect(checkVatNumber("IT", "GR123456789")).toMatchObject({
      ok: false,
      message: expect.stringMatching(/^GR starts a Greek VAT number, not an Italian one\. /),
    });
    // A French number's two characters after FR may be letters: with its own prefix, they are read as the French key.
    expect(checkVatNumber("FR", "FRDE123456789")).toEqual({ ok: true, normalized: "FRDE123456789" });
  });

  it("blank is refused, asking for the number in the country's form", () => {
    expect(checkVatNumber("DE", "  ")).toEqual({
      ok: false,
      message: "Enter the VAT number. A German VAT number is DE followed by 9 digits (DE123456789).",
    });
  });

  it("outside the UK and the Union no VAT number is taken", () => {
    for (const country of ["US", "CH", "", "France"]) {
      expect(checkVatNumber(country, "CHE123456789"), country).toEqual({
        ok: false,
        message: "A VAT number is taken only from a buyer in the UK or the European Union.",
      });
    }
    expect(vatNumberForm("US")).toBeNull();
  });

  it("whatever is typed: either a normalized number of the country's form that checks again as itself, or a sentence", () => {
    const typed = fc.oneof(
      fc.string({ maxLength: 20 }),
      fc.stringMatching(/^[A-Z]{2}[ .\-0-9A-Z+*]{0,14}$/),
      fc.stringMatching(/^[0-9 ]{2,14}$/),
    );
    fc.assert(
      fc.property(fc.constantFrom(...VAT_COUNTRIES), typed, (country, text) => {
        const result = checkVatNumber(country, text);
        const form = VAT_NUMBER_FORMS[country];
        if (result.ok) {
          expect(result.normalized.startsWith(form.prefix)).toBe(true);
          expect(form.body.test(result.normalized.slice(form.prefix.length))).toBe(true);
          expect(checkVatNumber(country, result.normalized)).toEqual(result);
        } else {
          expect(result.message.endsWith(vatNumberForm(country)!)).toBe(true);
        }
      }),
      runs,
    );
  });
});
