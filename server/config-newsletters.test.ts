import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const dir = () => mkdtempSync(path.join(tmpdir(), "atelier-config-nl-"));
const KEY = "-----BEGIN PRIVATE KEY-----\nabc\n-----END PRIVATE KEY-----";

describe("the newsletter's settings", () => {
  it("sends 600 a minute unless told, and accepts no rate of zero", () => {
    expect(loadConfig({ DATA_DIR: dir() }).newsletterRatePerMinute).toBe(600);
    expect(loadConfig({ DATA_DIR: dir(), NEWSLETTER_RATE_PER_MINUTE: "1200" }).newsletterRatePerMinute).toBe(1200);
    expect(() => loadConfig({ DATA_DIR: dir(), NEWSLETTER_RATE_PER_MINUTE: "0" })).toThrow(
      /NEWSLETTER_RATE_PER_MINUTE/,
    );
  });

  it("signs with DKIM only when the key, the selector and the domain are all set (the key may come from a file)", () => {
    expect(loadConfig({ DATA_DIR: dir() }).dkim).toBeUndefined();
    const file = path.join(dir(), "dkim.pem");
    writeFileSync(file, KEY);
    expect(
      loadConfig({ DATA_DIR: dir(), DKIM_PRIVATE_KEY_FILE: file, DKIM_SELECTOR: "s1", DKIM_DOMAIN: "example.org" })
        .dkim,
    ).toEqual({ privateKey: KEY, keySelector: "s1", domainName: "example.org" });
    expect(() => loadConfig({ DATA_DIR: dir(), DKIM_SELECTOR: "s1" })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), DKIM_SELECTOR: "s1" })).toThrow(/set all three/);
  });

  it("refuses a webhook secret shorter than 16 characters", () => {
    expect(() => loadConfig({ DATA_DIR: dir(), MAIL_WEBHOOK_SECRET: "short" })).toThrow(/MAIL_WEBHOOK_SECRET/);
    expect(loadConfig({ DATA_DIR: dir(), MAIL_WEBHOOK_SECRET: "x".repeat(16) }).mailWebhookSecret).toBe("x".repeat(16));
  });
});
