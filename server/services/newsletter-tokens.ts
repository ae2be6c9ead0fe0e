import { createHash, createHmac, randomBytes, timingSafeEqual } from "node:crypto";

/** How long a confirmation link works (issue 13, part 3). */
export const CONFIRM_VALID_DAYS = 7;
const DAY_MS = 24 * 60 * 60_000;
/** A repeat signup of a pending address within this time sends no second mail (the first one is on its way). */
export const RESEND_AFTER_MS = 10 * 60_000;

/** SHA-256 (hex) of a token: what the database keeps, so a leaked table confirms nobody. */
export const hashToken = (token: string) => createHash("sha256").update(token).digest("hex");

/** A fresh confirmation link token (256 random bits), its stored hash and when it stops working. */
export function newConfirmToken(now: Date): { token: string; hash: string; expiresAt: Date } {
  const token = randomBytes(32).toString("base64url");
  return { token, hash: hashToken(token), expiresAt: new Date(now.getTime() + CONFIRM_VALID_DAYS * DAY_MS) };
}

/** Whether a pending address may be sent another confirmation mail now (none yet, or the last one is old enough). */
export const mayResend = (lastSentAt: Date | null, now: Date) =>
  lastSentAt === null || now.getTime() - lastSentAt.getTime() >= RESEND_AFTER_MS;

/** What a confirmation link found: usable, its address already confirmed, expired, used (then left), unknown. */
export type ConfirmLinkState = "ready" | "confirmed" | "expired" | "used" | "invalid";

/**
 * The rule of a confirmation link: it works while its address is pending and before its expiry (the expiry instant
 * itself is too late); using it again changes nothing (confirmed); the link of an address that has since unsubscribed
 * was used; no row is an unknown link (never issued, or replaced by a newer one).
 */
export function confirmLinkState(
  row: { state: "confirmed" | "pending" | "unsubscribed"; confirmExpiresAt: Date | null } | undefined,
  now: Date,
): ConfirmLinkState {
  if (!row) return "invalid";
  if (row.state === "confirmed") return "confirmed";
  if (row.state === "unsubscribed") return "used";
  if (!row.confirmExpiresAt || now.getTime() >= row.confirmExpiresAt.getTime()) return "expired";
  return "ready";
}

/** The key of unsubscribe links, derived from the app secret for this one purpose. */
const unsubscribeKey = (secret: string) => createHmac("sha256", secret).update("newsletter-unsubscribe").digest();
const signature = (secret: string, id: string) =>
  createHmac("sha256", unsubscribeKey(secret)).update(id).digest("base64url");

/**
 * A subscriber's stable unsubscribe token: their id and an HMAC of it. Nothing is stored, so every newsletter mail
 * ever sent to them carries a link that keeps working (until the app secret changes).
 */
export const unsubscribeToken = (secret: string, id: string) => `${id}.${signature(secret, id)}`;

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/;

/** The subscriber id an unsubscribe token names, or null when it is malformed or its signature is wrong. */
export function readUnsubscribeToken(secret: string, token: string): string | null {
  const dot = token.indexOf(".");
  if (dot < 0) return null;
  const id = token.slice(0, dot);
  if (!UUID.test(id)) return null;
  const given = Buffer.from(token.slice(dot + 1));
  const expected = Buffer.from(signature(secret, id));
  return given.length === expected.length && timingSafeEqual(given, expected) ? id : null;
}
