import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const dir = () => mkdtempSync(path.join(tmpdir(), "atelier-config-"));

describe("loadConfig", () => {
  it("applies the documented defaults", () => {
    const d = dir();
    const c = loadConfig({ DATA_DIR: d });
    expect(c).toMatchObject({
      port: 3000,
      host: "127.0.0.1",
      dataDir: d,
      databaseUrl: undefined,
      publicUrl: "http://localhost:3000",
      trustProxy: false,
      generationDelayMs: 9000,
    });
  });

  it("derives PUBLIC_URL from PORT and strips a trailing slash from a given one", () => {
    expect(loadConfig({ DATA_DIR: dir(), PORT: "8080" }).publicUrl).toBe("http://localhost:8080");
    expect(loadConfig({ DATA_DIR: dir(), PUBLIC_URL: "https://agency.example/" }).publicUrl).toBe(
      "https://agency.example",
    );
  });

  it("shows dates in TZ, or in the machine's zone when unset: always a named zone pages can pass on", () => {
    expect(loadConfig({ DATA_DIR: dir(), TZ: "Pacific/Kiritimati" }).timeZone).toBe("Pacific/Kiritimati");
    expect(loadConfig({ DATA_DIR: dir() }).timeZone).toBe(Intl.DateTimeFormat().resolvedOptions().timeZone);
  });

  it.each([
    ["PORT", "eighty", "PORT"],
    ["PORT", "70000", "PORT"],
    ["DATABASE_URL", "mysql://x", "DATABASE_URL: must be a postgres:// or postgresql:// URL"],
    ["PUBLIC_URL", "agency.example", "PUBLIC_URL"],
    ["AUTH_SECRET", "short", "AUTH_SECRET: must be at least 32 characters"],
    ["TRUST_PROXY", "maybe", "TRUST_PROXY"],
    ["GENERATION_DELAY_MS", "-1", "GENERATION_DELAY_MS"],
    ["GENERATION_DELAY_MS", "soon", "GENERATION_DELAY_MS"],
    ["TZ", "Mars/Olympus", "TZ: must be an IANA time zone"],
  ])("a bad %s stops the start naming it", (name, value, message) => {
    expect(() => loadConfig({ DATA_DIR: dir(), [name]: value })).toThrow(ConfigError);
    expect(() => loadConfig({ DATA_DIR: dir(), [name]: value })).toThrow(message);
  });

  it("generates the auth secret once, keeps it private, and reuses it", () => {
    const d = dir();
    const first = loadConfig({ DATA_DIR: d }).authSecret;
    expect(first.length).toBeGreaterThanOrEqual(32);
    expect(loadConfig({ DATA_DIR: d }).authSecret).toBe(first);
    const file = path.join(d, "secrets", "auth-secret");
    expect(readFileSync(file, "utf8").trim()).toBe(first);
    expect(statSync(file).mode & 0o777).toBe(0o600);
    expect(loadConfig({ DATA_DIR: d, AUTH_SECRET: "s".repeat(32) }).authSecret).toBe("s".repeat(32));
  });
});
