import { describe, expect, it } from "vitest";
import {
  CONFIRM_VALID_DAYS,
  confirmLinkState,
  hashToken,
  mayResend,
  newConfirmToken,
  readUnsubscribeToken,
  RESEND_AFTER_MS,
  unsubscribeToken,
} from "./newsletter-tokens";

const now = new Date("2026-03-01T12:00:00Z");
const DAY = 24 * 60 * 60_000;

describe("confirmation tokens", () => {
  it("are random, stored only as their SHA-256 hash, and expire 7 days later", () => {
    const a = newConfirmToken(now);
    const b = newConfirmToken(now);
    expect(a.token).not.toBe(b.token);
    expect(a.token).toMatch(/^[A-Za-z0-9_-]{43}$/);
    expect(a.hash).toBe(hashToken(a.token));
    expect(a.hash).toMatch(/^[0-9a-f]{64}$/);
    expect(a.hash).not.toContain(a.token);
    expect(CONFIRM_VALID_DAYS).toBe(7);
    expect(a.expiresAt.getTime() - now.getTime()).toBe(7 * DAY);
  });

  it("a link works while pending and before its expiry, not at the expiry instant", () => {
    const { expiresAt } = newConfirmToken(now);
    const pending = { state: "pending" as const, confirmExpiresAt: expiresAt };
    expect(confirmLinkState(pending, now)).toBe("ready");
    expect(confirmLinkState(pending, new Date(expiresAt.getTime() - 1))).toBe("ready");
    expect(confirmLinkState(pending, expiresAt)).toBe("expired");
    expect(confirmLinkState(pending, new Date(now.getTime() + 8 * DAY))).toBe("expired");
    expect(confirmLinkState({ state: "pending", confirmExpiresAt: null }, now)).toBe("expired");
  });

  it("a link of a confirmed address stays confirmed, of an unsubscribed one was used; no row is unknown", () => {
    const later = new Date(now.getTime() + DAY);
    expect(confirmLinkState({ state: "confirmed", confirmExpiresAt: later }, now)).toBe("confirmed");
    expect(confirmLinkState({ state: "confirmed", confirmExpiresAt: null }, now)).toBe("confirmed");
    expect(confirmLinkState({ state: "unsubscribed", confirmExpiresAt: later }, now)).toBe("used");
    expect(confirmLinkState(undefined, now)).toBe("invalid");
  });

  it("a pending address gets another mail only when the last one is old enough", () => {
    expect(mayResend(null, now)).toBe(true);
    expect(mayResend(new Date(now.getTime() - RESEND_AFTER_MS + 1), now)).toBe(false);
    expect(mayResend(new Date(now.getTime() - RESEND_AFTER_MS), now)).toBe(true);
  });
});

describe("unsubscribe tokens", () => {
  const secret = "s".repeat(40);
  const id = "3f2b8c1e-9d4a-4b6e-8f0a-1c2d3e4f5a6b";

  it("are stable for a subscriber and name them back", () => {
    const token = unsubscribeToken(secret, id);
    expect(unsubscribeToken(secret, id)).toBe(token);
    expect(token.startsWith(`${id}.`)).toBe(true);
    expect(readUnsubscribeToken(secret, token)).toBe(id);
  });

  it("refuse a changed id, a changed signature, another secret and malformed text", () => {
    const token = unsubscribeToken(secret, id);
    const otherId = "00000000-0000-4000-8000-000000000000";
    expect(readUnsubscribeToken(secret, `${otherId}${token.slice(id.length)}`)).toBeNull();
    expect(readUnsubscribeToken(secret, `${token.slice(0, -1)}${token.endsWith("A") ? "B" : "A"}`)).toBeNull();
    expect(readUnsubscribeToken("t".repeat(40), token)).toBeNull();
    for (const bad of ["", "nodot", `${id}.`, "x.y", `${id.toUpperCase()}.${token.split(".")[1]}`]) {
      expect(readUnsubscribeToken(secret, bad)).toBeNull();
    }
  });
});
