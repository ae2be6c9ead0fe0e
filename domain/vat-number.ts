/**
 * A buyer's VAT number, checked for its form only (issue 35 part 3, decision 071): the form each country gives its
 * numbers (the UK's, and the 27 member states' as the EU's VIES lists them), with no network call and no checksum,
 * so a typing slip is caught at once with a sentence naming the expected form. Whether the number is registered is a
 * question for VIES or HMRC, not for this rule.
 */
import { VAT_COUNTRIES, vatCountry, type VatCountry } from "./vat-rates";

/** One country's VAT number: its prefix, what follows it, and how a message names and describes it. */
export interface VatNumberForm {
  /** The two letters every number starts with: the ISO code, but EL for Greece. */
  prefix: string;
  /** What follows the prefix, once upper case and without spaces, dots or dashes. */
  body: RegExp;
  /** "A German", "An Austrian": the start of the sentence that names the form. */
  a: string;
  /** What follows "… VAT number is ", with an example: "DE followed by 9 digits (DE123456789)". */
  is: string;
}

const form = (prefix: string, a: string, body: RegExp, is: string): VatNumberForm => ({ prefix, body, a, is });

/** The form of each country's VAT numbers. */
export const VAT_NUMBER_FORMS: Record<VatCountry, VatNumberForm> = {
  // HMRC: 9 digits, 12 for a branch of a group; GD and HA numbers were given to government departments and health
  // authorities.
  GB: form(
    "GB",
    "A UK",
    /^(?:\d{9}|\d{12}|(?:GD|HA)\d{3})$/,
    "GB followed by 9 or 12 digits, or by GD or HA and 3 digits (GB123456789)",
  ),
  AT: form("AT", "An Austrian", /^U\d{8}$/, "ATU followed by 8 digits (ATU12345678)"),
  BE: form("BE", "A Belgian", /^[01]\d{9}$/, "BE followed by 10 digits, the first 0 or 1 (BE0123456789)"),
  BG: form("BG", "A Bulgarian", /^\d{9,10}$/, "BG followed by 9 or 10 digits (BG123456789)"),
  HR: form("HR", "A Croatian", /^\d{11}$/, "HR followed by 11 digits (HR12345678901)"),
  CY: form("CY", "A Cypriot", /^\d{8}[A-Z]$/, "CY followed by 8 digits and a letter (CY12345678L)"),
  CZ: form("CZ", "A Czech", /^\d{8,10}$/, "CZ followed by 8, 9 or 10 digits (CZ12345678)"),
  DK: form("DK", "A Danish", /^\d{8}$/, "DK followed by 8 digits (DK12345678)"),
  EE: form("EE", "An Estonian", /^\d{9}$/, "EE followed by 9 digits (EE123456789)"),
  FI: form("FI", "A Finnish", /^\d{8}$/, "FI followed by 8 digits (FI12345678)"),
  FR: form("FR", "A French", /^[0-9A-Z]{2}\d{9}$/, "FR followed by 2 letters or digits and 9 digits (FR12345678901)"),
  DE: form("DE", "A German", /^\d{9}$/, "DE followed by 9 digits (DE123456789)"),
  GR: form("EL", "A Greek", /^\d{9}$/, "EL followed by 9 digits (EL123456789)"),
  HU: form("HU", "A Hungarian", /^\d{8}$/, "HU followed by 8 digits (HU12345678)"),
  // Since 2013: 7 digits and one or two letters; before: a digit, a letter (or + or *), 5 digits and a letter.
  IE: form(
    "IE",
    "An Irish",
    /^(?:\d{7}[A-Z]{1,2}|\d[A-Z+*]\d{5}[A-Z])$/,
    "IE followed by 7 digits and 1 or 2 letters, or by a digit, a letter or + or *, 5 digits and a letter (IE1234567T)",
  ),
  IT: form("IT", "An Italian", /^\d{11}$/, "IT followed by 11 digits (IT12345678901)"),
  LV: form("LV", "A Latvian", /^\d{11}$/, "LV followed by 11 digits (LV12345678901)"),
  LT: form("LT", "A Lithuanian", /^(?:\d{9}|\d{12})$/, "LT followed by 9 or 12 digits (LT123456789)"),
  LU: form("LU", "A Luxembourg", /^\d{8}$/, "LU followed by 8 digits (LU12345678)"),
  MT: form("MT", "A Maltese", /^\d{8}$/, "MT followed by 8 digits (MT12345678)"),
  NL: form("NL", "A Dutch", /^\d{9}B\d{2}$/, "NL followed by 9 digits, the letter B and 2 digits (NL123456789B01)"),
  PL: form("PL", "A Polish", /^\d{10}$/, "PL followed by 10 digits (PL1234567890)"),
  PT: form("PT", "A Portuguese", /^\d{9}$/, "PT followed by 9 digits (PT123456789)"),
  RO: form("RO", "A Romanian", /^\d{2,10}$/, "RO followed by 2 to 10 digits (RO1234567890)"),
  SK: form("SK", "A Slovak", /^\d{10}$/, "SK followed by 10 digits (SK1234567890)"),
  SI: form("SI", "A Slovenian", /^\d{8}$/, "SI followed by 8 digits (SI12345678)"),
  // VIES: the first and the last character may each be a letter or a digit, but not both digits.
  ES: form(
    "ES",
    "A Spanish",
    /^(?!\d{9}$)[0-9A-Z]\d{7}[0-9A-Z]$/,
    "ES followed by 9 characters: a letter or digit, 7 digits, a letter or digit, not both digits (ESB12345678)",
  ),
  SE: form("SE", "A Swedish", /^\d{12}$/, "SE followed by 12 digits (SE123456789001)"),
};

/** The prefixes a typed number may start with, and whose they are: every country's, and GR, Greece's ISO code. */
const PREFIX_OWNER = new Map<string, VatCountry>([
  ...VAT_COUNTRIES.map((c) => [VAT_NUMBER_FORMS[c].prefix, c] as const),
  ["GR", "GR"],
]);

/**
 * The sentence that names a country's form, "A German VAT number is DE followed by 9 digits (DE123456789).", or null
 * for a country outside the UK and the Union.
 */
export function vatNumberForm(country: string): string | null {
  const known = vatCountry(country);
  if (!known) return null;
  const f = VAT_NUMBER_FORMS[known];
  return `${f.a} VAT number is ${f.is}.`;
}

export type VatNumberCheck = { ok: true; normalized: string } | { ok: false; message: string };

/**
 * Whether `typed` has the form of a VAT number of `country` (an ISO code, any case; UK and EL accepted): on success
 * the number as invoices print it, upper case, without spaces, dots or dashes, its prefix first ("DE123456789",
 * "EL123456789" for Greece, where GR typed is read as EL); else a sentence naming the expected form. The prefix may be
 * left out. Another country's prefix is refused with a sentence saying whose it is: a buyer's number must be of the
 * buyer's country (a French number's two characters after FR may be letters, so a French number typed without its
 * prefix whose first two letters are another country's prefix is refused too: typed with FR, it passes).
 */
export function checkVatNumber(country: string, typed: string): VatNumberCheck {
  const known = vatCountry(country);
  if (!known) return { ok: false, message: "A VAT number is taken only from a buyer in the UK or the European Union." };
  const f = VAT_NUMBER_FORMS[known];
  const sentence = `${f.a} VAT number is ${f.is}.`;
  const text = typed.toUpperCase().replace(/[\s.-]/g, "");
  if (!text) return { ok: false, message: `Enter the VAT number. ${sentence}` };

  const start = text.slice(0, 2);
  const owner = PREFIX_OWNER.get(start);
  if (owner === known) {
    const body = text.slice(2);
    return f.body.test(body) ? { ok: true, normalized: `${f.prefix}${body}` } : { ok: false, message: sentence };
  }
  if (owner) {
    // "A German" → "a German", "An Austrian" → "an Austrian".
    const theirs = VAT_NUMBER_FORMS[owner].a.replace(/^A/, "a");
    const ours = f.a.replace(/^A/, "a");
    return { ok: false, message: `${start} starts ${theirs} VAT number, not ${ours} one. ${sentence}` };
  }
  return f.body.test(text) ? { ok: true, normalized: `${f.prefix}${text}` } : { ok: false, message: sentence };
}
