import { z } from "zod";
import { DEFAULT_MONEY_SETTINGS, moneySettingsSchema, type MoneySettings } from "./money-settings";

/**
 * The back office's settings: each key with its label, its default and the schema of its value (JSON true/false from
 * the REST API, a checkbox's "on" or nothing from a page form). Stored one row per key (server/services/settings.ts).
 */
const checkbox = z
  .union([z.boolean(), z.literal("on"), z.literal("true"), z.literal("false")], {
    error: "Must be true or false",
  })
  .optional()
  .transform((v) => v === true || v === "on" || v === "true");

/** A line of the invoice's legal details: text up to `max` characters, blank when the agency has none. */
const invoiceText = (max: number) =>
  z
    .string({ error: "Must be text" })
    .trim()
    .max(max, { error: `At most ${max} characters` })
    // A text area posts CRLF line ends.
    .transform((v) => v.replace(/\r\n?/g, "\n"))
    // eslint-disable-next-line no-control-regex -- control characters (but tab and line end) are what it refuses
    .refine((v) => !/[\u0000-\u0008\u000b-\u001f\u007f]/.test(v), { error: "Remove the control characters" })
    // Absent stays absent: a form or body that does not name it leaves it as it is.
    .optional();

export const SETTINGS = {
  autoActivate: {
    label: "Activate memberships automatically when a payment is verified",
    help: "Off: a paid order waits in “To deliver” until you set it Delivered. On: a payment PayPal verifies also sets the order Delivered, so the membership starts at once.",
    default: false,
    schema: checkbox,
  },
  // The agency's legal details on its invoices (decision 038); its name, address and contact come from the content.
  invoiceCompanyName: {
    label: "Company name",
    help: "The registered name of the business that issues the invoices, if it differs from the site's name.",
    default: "",
    schema: invoiceText(120),
  },
  invoiceCompanyNumber: {
    label: "Company number",
    help: "The registration number of the business (leave blank if it has none).",
    default: "",
    schema: invoiceText(60),
  },
  invoiceRegisteredAddress: {
    label: "Registered address",
    help: "The business's registered address, if it differs from the address on the site. One line per line.",
    default: "",
    schema: invoiceText(400),
  },
  /**
   * The site's money settings (issue 35, decision 072): currency and VAT, one record changed and audited as one; the
   * VAT number printed on invoices is its `vatNumber`. A JSON body that does not name it leaves it as it is.
   */
  money: {
    label: "Currency and VAT",
    help: "The currency prices are in, and how VAT is charged.",
    default: DEFAULT_MONEY_SETTINGS as MoneySettings,
    schema: moneySettingsSchema.optional(),
  },
} as const;

/** The settings printed on invoices, in the order the invoice settings form shows them. */
export const INVOICE_SETTING_KEYS = [
  "invoiceCompanyName",
  "invoiceCompanyNumber",
  "invoiceRegisteredAddress",
] as const satisfies readonly SettingKey[];

/**
 * The invoice settings form: every field is posted, and a field left empty clears its setting (a form sends nothing
 * for an empty field once parsed, so absent means blank here).
 */
export const invoiceSettingsSchema = z.object(
  Object.fromEntries(INVOICE_SETTING_KEYS.map((k) => [k, SETTINGS[k].schema.transform((v) => v ?? "")])) as {
    [K in (typeof INVOICE_SETTING_KEYS)[number]]: z.ZodPipe<(typeof SETTINGS)[K]["schema"], z.ZodTransform<string>>;
  },
);

export type SettingKey = keyof typeof SETTINGS;
/** Every setting has a value once read (its default when never saved). */
export type Settings = { [K in SettingKey]: NonNullable<z.output<(typeof SETTINGS)[K]["schema"]>> };

/** A form or a JSON body setting some of the settings: every key optional, unknown keys dropped. */
export const settingsSchema = z.object(
  Object.fromEntries(Object.entries(SETTINGS).map(([k, d]) => [k, d.schema])) as {
    [K in SettingKey]: (typeof SETTINGS)[K]["schema"];
  },
);

export const DEFAULT_SETTINGS = Object.fromEntries(
  Object.entries(SETTINGS).map(([k, d]) => [k, d.default]),
) as Settings;
