import { createHmac, timingSafeEqual } from "node:crypto";

/**
 * The session token a signed session cookie carries, checked as better-auth checks it (better-call's signed cookies:
 * `encodeURIComponent(token + "." + base64(HMAC-SHA256(token, secret)))`), with node's synchronous HMAC instead of a
 * WebCrypto round trip. Returns undefined when there is no cookie, false when it is not genuine.
 */
export function sessionTokenOf(raw: string | undefined, secret: string): string | false | undefined {
  if (!raw) return undefined;
  let value: string;
  try {
    value = decodeURIComponent(raw);
  } catch {
    return false;
  }
  const dot = value.lastIndexOf(".");
  if (dot < 1) return false;
  const token = value.slice(0, dot);
  const signature = value.slice(dot + 1);
  if (signature.length !== 44 || !signature.endsWith("=")) return false;
  const expected = createHmac("sha256", secret).update(token).digest();
  const given = Buffer.from(signature, "base64");
  return given.length === expected.length && timingSafeEqual(given, expected) ? token : false;
}

/** Whether better-auth would extend this session now (its `updateAge` has passed since it was last extended). */
export function sessionRefreshDue(
  expiresAt: Date,
  now: number,
  config: { expiresInSeconds: number; updateAgeSeconds: number },
): boolean {
  return expiresAt.getTime() - config.expiresInSeconds * 1000 + config.updateAgeSeconds * 1000 <= now;
}
