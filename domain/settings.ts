import { z } from "zod";

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

export const SETTINGS = {
  autoActivate: {
    label: "Activate memberships automatically when a payment is verified",
    help: "Off: a paid order waits in “To deliver” until you set it Delivered (the spec's rule). On: a payment PayPal verifies also sets the order Delivered, so the membership starts at once.",
    default: false,
    schema: checkbox,
  },
} as const;

export type SettingKey = keyof typeof SETTINGS;
export type Settings = { [K in SettingKey]: z.output<(typeof SETTINGS)[K]["schema"]> };

/** A form or a JSON body setting some of the settings: every key optional, unknown keys dropped. */
export const settingsSchema = z.object(
  Object.fromEntries(Object.entries(SETTINGS).map(([k, d]) => [k, d.schema])) as {
    [K in SettingKey]: (typeof SETTINGS)[K]["schema"];
  },
);

export const DEFAULT_SETTINGS = Object.fromEntries(
  Object.entries(SETTINGS).map(([k, d]) => [k, d.default]),
) as Settings;
