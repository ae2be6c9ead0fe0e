/**
 * Every closed list of values the product knows (spec 1 section 4, spec 2 sections 4 and 7), each in one place with
 * its labels and badge tones. Zod enums, database columns and CHECKs, select options and badges derive from these.
 * This folder is shared by the browser and the server and imports neither app/ nor server/.
 */

/** The colour a badge takes; the Badge component maps each to its classes. */
export type Tone = "green" | "amber" | "red" | "grey" | "blue";

export interface Vocabulary<V extends string> {
  /** The values, in a fixed order (the order of CHECK lists and of select options). */
  readonly values: readonly [V, ...V[]];
  includes(value: unknown): value is V;
  label(value: V): string;
  tone(value: V): Tone;
  /** Select options, for all values or the given subset, in the order given. */
  options(subset?: readonly V[]): { value: V; label: string }[];
  /** "A, B or C": the values (or a subset) for a sentence. */
  sentence(subset?: readonly V[]): string;
}

/** "A, B or C". */
export function sentence(values: readonly string[]): string {
  return values.length < 2 ? values.join("") : `${values.slice(0, -1).join(", ")} or ${values.at(-1)}`;
}

function vocabulary<const V extends string>(
  values: readonly [V, ...V[]],
  meta: { [K in V]: { tone: Tone; label?: string } },
): Vocabulary<V> {
  const label = (value: V) => meta[value].label ?? value;
  return {
    values,
    includes: (value): value is V => typeof value === "string" && (values as readonly string[]).includes(value),
    label,
    tone: (value) => meta[value].tone,
    options: (subset = values) => subset.map((value) => ({ value, label: label(value) })),
    sentence: (subset = values) => sentence(subset),
  };
}

/** An order's payment (spec 1 section 4): new orders start UnPaid; the cancel page sets Cancelled. */
export const paymentStatuses = vocabulary(["UnPaid", "Paid", "Cancelled", "Refunded"], {
  UnPaid: { tone: "amber" },
  Paid: { tone: "green" },
  Cancelled: { tone: "grey" },
  Refunded: { tone: "red" },
});
export type PaymentStatus = (typeof paymentStatuses.values)[number];
/** What the administrator's order screen offers (spec 2 section 4): any of these; Cancelled is the customer's. */
export const ADMIN_PAYMENT_STATUSES = ["Paid", "UnPaid", "Refunded"] as const satisfies readonly PaymentStatus[];

/**
 * How an order's payment came (null while unpaid): PayPal's verified payment, a bank transfer the studio recorded, a
 * payment the studio set Paid by hand, or days given by the agency (a zero-price order: no sale, no invoice).
 */
export const paymentMethods = vocabulary(["PayPal", "Bank transfer", "By hand", "Gift"], {
  PayPal: { tone: "blue" },
  "Bank transfer": { tone: "blue" },
  "By hand": { tone: "grey", label: "Marked paid by the studio" },
  Gift: { tone: "green", label: "Given by the agency" },
});
export type PaymentMethod = (typeof paymentMethods.values)[number];

/** An order's delivery: new orders start Pending. */
export const orderStatuses = vocabulary(["Pending", "Delivered"], {
  Pending: { tone: "blue" },
  Delivered: { tone: "green" },
});
export type OrderStatus = (typeof orderStatuses.values)[number];

/** A contact message: every message starts UnRead; 'Mark Read' makes it Read. */
export const messageStatuses = vocabulary(["UnRead", "Read"], {
  UnRead: { tone: "amber" },
  Read: { tone: "grey" },
});
export type MessageStatus = (typeof messageStatuses.values)[number];

/**
 * A newsletter address (double opt-in): a footer signup is pending until its confirmation link is used; only confirmed
 * addresses are subscribers; unsubscribed ones are kept (with their dates) so the admin sees who left and when.
 */
export const subscriberStates = vocabulary(["confirmed", "pending", "unsubscribed"], {
  confirmed: { tone: "green", label: "Confirmed" },
  pending: { tone: "amber", label: "Pending" },
  unsubscribed: { tone: "grey", label: "Unsubscribed" },
});
export type SubscriberState = (typeof subscriberStates.values)[number];

/** A background job (server/services/jobs.ts): waiting, waiting to be retried, running, or failed for good. */
export const jobStatuses = vocabulary(["Waiting", "Retrying", "Running", "Failed"], {
  Waiting: { tone: "blue" },
  Retrying: { tone: "amber" },
  Running: { tone: "green" },
  Failed: { tone: "red" },
});
export type JobStatus = (typeof jobStatuses.values)[number];

/** A pg-boss job state as the admin reads it (its finished states are not listed). */
export function jobStatusOf(state: string): JobStatus {
  if (state === "retry") return "Retrying";
  if (state === "active") return "Running";
  if (state === "failed") return "Failed";
  return "Waiting";
}

/**
 * The role of a staff member, an entry in the admin list (spec 2: userRole, default 'Admin'). Admin (the owner) may do
 * everything; an Editor looks after the site's content, media, items and messages (domain/capabilities.ts says which
 * areas each role opens, decision 036).
 */
export const adminRoles = vocabulary(["Admin", "Editor"], {
  Admin: { tone: "green" },
  Editor: { tone: "blue" },
});
export type AdminRole = (typeof adminRoles.values)[number];

/** What an activity-log entry records. */
export const activityActions = vocabulary(["create", "update", "delete", "restore", "purge"], {
  create: { tone: "green" },
  update: { tone: "blue" },
  delete: { tone: "red" },
  // Taken back out of the trash, and deleted for good from it (decision 039).
  restore: { tone: "green" },
  purge: { tone: "grey" },
});
export type ActivityAction = (typeof activityActions.values)[number];

/** 'web-design' → 'WEB DESIGN': file name without extension, hyphens to spaces, capitals (spec 2, section 5). */
export function categoryLabel(key: string): string {
  const base = key
    .trim()
    .split(/[\\/]/)
    .pop()!
    .replace(/\.json$/i, "");
  return base.replace(/-+/g, " ").trim().toUpperCase();
}

/**
 * The five catalogue categories: the key is the template file's name without .json (what an item stores as
 * itemDatabaseUrl), the label the spec's capitals.
 */
export const categories = vocabulary(
  ["web-design", "video-editing", "seo-service", "graphic-design", "facebook-marketing"],
  {
    "web-design": { tone: "blue", label: categoryLabel("web-design") },
    "video-editing": { tone: "blue", label: categoryLabel("video-editing") },
    "seo-service": { tone: "blue", label: categoryLabel("seo-service") },
    "graphic-design": { tone: "blue", label: categoryLabel("graphic-design") },
    "facebook-marketing": { tone: "blue", label: categoryLabel("facebook-marketing") },
  },
);
export type CategoryKey = (typeof categories.values)[number];

/** The simple items of /add-item: their format and whether they are paid (spec 2, section 7). */
export const itemFormats = vocabulary(["Facebook", "Instagram", "YouTube"], {
  Facebook: { tone: "blue" },
  Instagram: { tone: "blue" },
  YouTube: { tone: "blue" },
});
export type ItemFormat = (typeof itemFormats.values)[number];

export const accessTypes = vocabulary(["Paid", "Free"], { Paid: { tone: "amber" }, Free: { tone: "green" } });
export type AccessType = (typeof accessTypes.values)[number];
