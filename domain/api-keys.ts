import { z } from "zod";
import { STAFF_AREAS, type StaffArea } from "./capabilities";
import { requiredText } from "./fields";
import { sentence } from "./vocabulary";

/**
 * API keys (issue 37, decision 077): what a key looks like, what an Admin chooses for it, and the one rule that says
 * whether a key may make a REST call. The service (server/services/api-keys.ts) stores and checks keys; the REST
 * router (server/http/api.ts) asks `keyRefusal` before every call made with a key.
 */

/** Every key starts with this, so that it is recognised where it leaks (a secret scanner, a log, a chat). */
export const KEY_PREFIX = "atl_";

/**
 * `atl_` + a public id of 12 hex characters (shown in lists, it tells keys apart; it finds the row) + `_` + the secret,
 * 32 random bytes in base64url (43 characters: 256 bits, so one SHA-256 of the whole key is enough to store it).
 */
const KEY_FORMAT = /^atl_([0-9a-f]{12})_([A-Za-z0-9_-]{43})$/;

/** The public id of a well-formed key (the row to compare its hash with), or null for anything else. */
export function publicIdOf(key: string): string | null {
  return KEY_FORMAT.exec(key)?.[1] ?? null;
}

/** How a key is shown in lists and in the activity log: its prefix and public id, never its secret. */
export const keyLabel = (publicId: string) => `${KEY_PREFIX}${publicId}…`;

/** The activity log's "who" for a key's changes (server/services/activity.ts Actor's email): readable in the log. */
export const keyActorName = (name: string, publicId: string) => `API key “${name}” (${keyLabel(publicId)})`;

export const KEY_ACCESS = ["read", "write"] as const;
export type KeyAccess = (typeof KEY_ACCESS)[number];
export const KEY_ACCESS_LABEL: Record<KeyAccess, string> = {
  read: "Read only",
  write: "Read and write",
};

/** What a person calls each area in a key's form and list (the area names of domain/capabilities.ts). */
export const AREA_LABEL: Record<StaffArea, string> = {
  content: "Site content",
  media: "Media library",
  items: "Items",
  messages: "Messages",
  subscribers: "Subscribers and newsletters",
  orders: "Orders",
  customers: "Customers",
  reports: "Reports",
  payments: "Payment accounts",
  users: "Staff users",
  settings: "Settings",
  backups: "Backups",
  exports: "Exports",
  activity: "Activity log",
};

/** A list or a single form value as a list (a form posts one ticked box as a string). */
const listOf = (v: unknown) => (typeof v === "string" ? [v] : v === undefined ? [] : v);

/** What an Admin chooses for a new key: its integration's name, its areas and whether it may write. */
export const apiKeyInputSchema = z.object({
  name: requiredText("Name", 80, "Name the integration this key is for"),
  areas: z.preprocess(
    listOf,
    z
      .array(z.enum(STAFF_AREAS, { error: `Each area must be one of ${sentence(STAFF_AREAS)}` }), {
        error: "Areas must be a list",
      })
      .min(1, { error: "Choose at least one area the key may use" })
      .max(STAFF_AREAS.length)
      .transform((areas) => STAFF_AREAS.filter((a) => areas.includes(a))),
  ),
  access: z.enum(KEY_ACCESS, { error: "Choose read only or read and write" }),
});
export type ApiKeyInput = z.output<typeof apiKeyInputSchema>;

/** What a key is allowed, as the REST router reads it. */
export interface KeyGrant {
  areas: readonly StaffArea[];
  access: KeyAccess;
}

/** A REST call as the key rule sees it: who it is for (server/http/routes/route.ts Access), its area, its method. */
export interface KeyCall {
  access: "public" | "user" | "staff";
  area?: StaffArea;
  /** The HTTP method of the request (HEAD is a read). */
  method: string;
  /** The call is never for keys: it needs a signed-in person (placing one's own order; the key calls themselves). */
  noKeys?: boolean;
}

/** Why a key was refused a call: always 403 (the key is known; it lacks the right), with the area it lacks. */
export interface KeyRefusal {
  status: 403;
  error: string;
  area?: StaffArea;
}

const READS = new Set(["GET", "HEAD"]);

/**
 * Whether a key may make a call, as a staff member of the key's areas may (decision 077): a back-office call (`admin`)
 * or a customer call with an area when the key has that area; a read-only key only reads (GET and HEAD), on every
 * call; a customer call without an area needs a person (it answers for "my" records), as do the calls marked
 * `noKeys`, so no key. Public calls are open to keys as to anyone (a read-only key still only reads). Null: allowed.
 */
export function keyRefusal(grant: KeyGrant, call: KeyCall): KeyRefusal | null {
  if (call.noKeys || (call.access === "user" && !call.area))
    return { status: 403, error: "API keys cannot use this call: it needs a signed-in person." };
  if (call.access !== "public" && call.area && !grant.areas.includes(call.area))
    return {
      status: 403,
      error: `This API key may not use the ${call.area} area (${AREA_LABEL[call.area]}): an Admin can make a key that has it.`,
      area: call.area,
    };
  if (grant.access === "read" && !READS.has(call.method.toUpperCase()))
    return { status: 403, error: "This API key is read-only: it may only read (GET), not change anything." };
  return null;
}
