import { z } from "zod";
import type { Tone } from "./vocabulary";

/**
 * Outgoing webhooks (issue 37 part 2, docs/decisions/078): the events an endpoint may subscribe to, the states of an
 * endpoint and of a delivery, the retry schedule and the form an Admin fills in. Pure: the pages, the service and the
 * tests read the same lists.
 */

/** Every event the product sends, with what it means (the form's checkboxes and the README say the same). */
export const WEBHOOK_EVENTS = {
  "order.placed": "A customer placed an order (not paid yet).",
  "order.paid": "An order's payment was received (PayPal, by hand, or a bank transfer).",
  "order.refunded": "An order's payment was refunded or reversed.",
  "order.cancelled": "An order was cancelled.",
  "membership.started": "A customer without a running membership now has one.",
  "membership.extended": "A running membership now ends later (a renewal, a further order, days given).",
  "membership.ended": "A membership period came to its end without a later one (sent once per period).",
  "subscription.started": "A PayPal subscription became active.",
  "subscription.renewed": "A PayPal subscription's later payment made a renewal order.",
  "subscription.payment_failed": "A PayPal subscription's payment failed.",
  "subscription.cancelled": "A PayPal subscription was cancelled (by the customer, PayPal or the studio).",
  "customer.created": "A customer signed up.",
  "customer.erased": "A customer's personal data was erased.",
  "contact_message.received": "A visitor sent a message through the contact form.",
  "subscriber.confirmed": "A newsletter subscriber confirmed their address.",
  "subscriber.unsubscribed": "A newsletter subscriber left the list.",
} as const;

export type WebhookEvent = keyof typeof WEBHOOK_EVENTS;
export const WEBHOOK_EVENT_NAMES = Object.keys(WEBHOOK_EVENTS) as WebhookEvent[];
/** The event "Send test event" sends: to one endpoint, whatever it subscribed to. */
export const TEST_EVENT = "webhook.test";
/** Subscribes to every event, those added later included. */
export const ALL_EVENTS = "all";

/** The version of the payloads' shape: `{type, timestamp, data}`; a change that breaks a reader gets a new one. */
export const PAYLOAD_VERSION = 1;

export const ENDPOINT_STATES = ["active", "paused", "disabled"] as const;
export type EndpointState = (typeof ENDPOINT_STATES)[number];
export const DELIVERY_STATES = ["pending", "succeeded", "failing", "failed"] as const;
export type DeliveryState = (typeof DELIVERY_STATES)[number];

/** The states in words (the screens). */
export const ENDPOINT_STATE_WORDS: Record<EndpointState, string> = {
  active: "Active",
  paused: "Paused",
  disabled: "Disabled",
};
export const ENDPOINT_STATE_TONE: Record<EndpointState, Tone> = { active: "green", paused: "amber", disabled: "red" };
export const DELIVERY_STATE_TONE: Record<DeliveryState, Tone> = {
  pending: "grey",
  succeeded: "green",
  failing: "amber",
  failed: "red",
};
export const DELIVERY_STATE_WORDS: Record<DeliveryState, string> = {
  pending: "Waiting",
  succeeded: "Delivered",
  failing: "Retrying",
  failed: "Failed",
};

/**
 * The wait before each attempt, in seconds, Standard Webhooks' suggestion: at once, then 5 s, 5 min, 30 min, 2 h, 5 h,
 * 10 h and 10 h (eight attempts over about 28 hours). WEBHOOKS_RETRY_SCHEDULE replaces it (tests: a few zeros).
 */
export const RETRY_SCHEDULE_SECONDS: readonly number[] = [0, 5, 300, 1800, 7200, 18000, 36000, 36000];

/**
 * The wait after `attemptsMade` failed attempts before the next one, in seconds; null when none is left (the delivery
 * has failed for good).
 */
export function retryDelay(attemptsMade: number, schedule: readonly number[] = RETRY_SCHEDULE_SECONDS): number | null {
  if (!Number.isInteger(attemptsMade) || attemptsMade < 1)
    throw new Error("retryDelay counts attempts made (1 or more)");
  return attemptsMade < schedule.length ? schedule[attemptsMade]! : null;
}

/** What one attempt's answer means: done, try again later, or the receiver asked us to stop (410 Gone). */
export type AttemptOutcome = "succeeded" | "retry" | "gone";

/**
 * An HTTP status (null: no answer: a timeout, a refused or unreachable address) as an outcome: any 2xx is delivered;
 * 410 disables the endpoint at once; everything else (3xx: redirects are not followed, 4xx, 5xx, no answer) is tried
 * again on the schedule.
 */
export function outcomeOf(status: number | null): AttemptOutcome {
  if (status !== null && status >= 200 && status < 300) return "succeeded";
  if (status === 410) return "gone";
  return "retry";
}

/** An endpoint whose every delivery has failed this long is paused and its owner mailed. */
export const PAUSE_AFTER_DAYS = 5;

/** Whether an endpoint failing since `failingSince` is paused now. */
export function pausesNow(failingSince: Date | null, now: Date, days = PAUSE_AFTER_DAYS): boolean {
  return failingSince !== null && now.getTime() - failingSince.getTime() >= days * 86_400_000;
}

/** The most characters of an endpoint's address and description. */
export const URL_MAX = 2000;
export const DESCRIPTION_MAX = 500;
/** The most characters of a delivery's last error and of a response's body kept. */
export const ERROR_MAX = 500;
export const SNIPPET_MAX = 200;

/**
 * The shape of an endpoint's address, before any name is resolved: an absolute https address (http too when
 * `allowHttp`, for local testing) without user name or password. null when fine, else the sentence to show.
 */
export function urlProblem(value: string, allowHttp: boolean): string | null {
  let url: URL;
  try {
    url = new URL(value);
  } catch {
    return "Enter a full address starting with https://";
  }
  if (url.protocol !== "https:" && !(allowHttp && url.protocol === "http:"))
    return allowHttp ? "The address must start with https:// or http://" : "The address must start with https://";
  if (url.username || url.password) return "The address may not contain a user name or password";
  if (!url.hostname) return "The address has no host name";
  return null;
}

/** The events a form or a call subscribes to: "all", or at least one of the known events. */
const eventsSchema = z
  .array(z.string())
  .min(1, { error: "Choose at least one event" })
  .max(WEBHOOK_EVENT_NAMES.length + 1)
  .transform((list, ctx) => {
    const unknown = list.filter((e) => e !== ALL_EVENTS && !(e in WEBHOOK_EVENTS));
    if (unknown.length) {
      ctx.addIssue({ code: "custom", message: `Unknown event: ${unknown.join(", ")}` });
      return z.NEVER;
    }
    return list.includes(ALL_EVENTS) ? [ALL_EVENTS] : [...new Set(list)].sort();
  });

/** An endpoint as an Admin adds or changes it. */
export const endpointSchema = z.object({
  url: z
    .string({ error: "Enter the address" })
    .trim()
    .min(1, { error: "Enter the address" })
    .max(URL_MAX, { error: `The address may have at most ${URL_MAX} characters` }),
  description: z
    .string()
    .trim()
    .max(DESCRIPTION_MAX, { error: `The description may have at most ${DESCRIPTION_MAX} characters` })
    .default(""),
  // A form sends one ticked box as a string and none as nothing.
  events: z.preprocess((v) => (v === undefined ? [] : typeof v === "string" ? [v] : v), eventsSchema),
});
export type EndpointInput = z.infer<typeof endpointSchema>;

/** Whether an endpoint subscribed to `events` receives `event`. */
export const subscribes = (events: readonly string[], event: string) =>
  events.includes(ALL_EVENTS) || events.includes(event);
