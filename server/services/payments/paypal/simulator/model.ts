import { randomBytes } from "node:crypto";
import type { Db } from "#server/db/client.ts";
import type { Logger } from "#server/lib/logger.ts";
import type { Money } from "../shapes";

/** Where the simulator's REST API answers on this server: PayPal's paths under it (`${selfUrl}${prefix}/v2/…`). */
export const SIMULATOR_REST_PREFIX = "/paypal-simulator/rest";
/** Where the buyer approves (the next step puts a page behind these): an order, a subscription. */
export const SIMULATOR_APPROVE_ORDER_PATH = "/paypal-simulator/checkoutnow";
export const SIMULATOR_APPROVE_SUBSCRIPTION_PATH = "/paypal-simulator/webapps/billing/subscriptions";
/** The credentials the simulator's OAuth server accepts (PAYPAL_MODE=simulator needs no real ones). */
export const SIMULATOR_CREDENTIALS = { clientId: "simulator-client-id", clientSecret: "simulator-client-secret" };
/** PayPal refuses refunds of a capture older than this. */
export const REFUND_DAYS = 180;
export const TOKEN_SECONDS = 32_400;
export const CERT_ID = "CERT-SIMULATOR-1";
export const AUTH_ALGO = "SHA256withRSA";

export type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];
export type Q = Db | Tx;
export type Json = Record<string, unknown>;
/** A stored object: PayPal's shape, with what the simulator keeps for itself under `_sim`. */
export type Obj = { [field: string]: unknown; id: string; _sim: SimState };

/** An answer of the simulated API, and the webhook transmissions to make once it is committed. */
export interface Answer {
  status: number;
  body: unknown;
  transmissions?: string[];
}

/** What the simulator keeps beside PayPal's shape of an object (never shown in an answer). */
export interface SimState {
  /** An order: what the buyer chose on the approval page (the capture's outcome). */
  result?: "completed" | "pending" | "denied";
  /** An order made with payment_source: its approval link is `payer-action`, else `approve`. */
  approveRel?: "approve" | "payer-action";
  experience?: { return_url: string; cancel_url: string };
  /** A capture: the amount refunded so far, in cents; a sale's subscription. */
  refundedCents?: number;
  subscriptionId?: string;
  /** A subscription: its payments so far. */
  payments?: number;
}

/** What the simulator is made from. */
export interface SimulatorDeps {
  db: Db;
  logger: Logger;
  now: () => Date;
  /** PUBLIC_URL: the buyer's approval links, and the only origin webhooks are delivered to (as this server). */
  publicUrl: string;
  /** How this server reaches itself (known once it listens). */
  selfUrl: () => string;
}

/** PayPal-like ids: 17 upper-case letters and digits, or a prefix and 12-26 of them. */
export const paypalId = (prefix = "", length = 17) => {
  const alphabet = "ABCDEFGHJKLMNPRSTUVWXYZ0123456789";
  let out = "";
  for (const byte of randomBytes(length)) out += alphabet[byte % alphabet.length];
  return prefix + out;
};
export const amountCents = (m: Money) => Math.round(Number(m.value) * 100);
export const centsValue = (cents: number) => (cents / 100).toFixed(2);
