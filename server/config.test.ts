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
    expect(loadConfig({ DATA_DIR: dir(), PUBLIC_URL: "https://agency.example/", PAYPAL_MODE: "live" }).publicUrl).toBe(
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

describe("TRUST_PROXY (issue 12, D2)", () => {
  it.each([
    [undefined, false],
    ["false", false],
    ["0", false],
    ["true", 1],
    ["1", 1],
    ["2", 2],
    ["10.0.0.1", ["10.0.0.1"]],
    ["loopback, 10.0.0.0/8 ,::1", ["loopback", "10.0.0.0/8", "::1"]],
  ])("%s → %j", (value, expected) => {
    expect(loadConfig({ DATA_DIR: dir(), ...(value === undefined ? {} : { TRUST_PROXY: value }) }).trustProxy).toEqual(
      expected,
    );
  });

  it.each(["maybe", "10.0.0.300", "10.0.0.0/99", "-1", "1.5"])("refuses %s, naming the variable", (value) => {
    expect(() => loadConfig({ DATA_DIR: dir(), TRUST_PROXY: value })).toThrow(/TRUST_PROXY/);
  });
});

describe("PAYPAL_MODE (issue 12, D5: no free memberships by accident)", () => {
  it.each([undefined, "http://localhost:3000", "http://127.0.0.1:8080", "http://[::1]:3000", "http://shop.localhost"])(
    "defaults to the simulator for a local PUBLIC_URL (%s)",
    (publicUrl) => {
      const env = { DATA_DIR: dir(), ...(publicUrl ? { PUBLIC_URL: publicUrl } : {}) };
      expect(loadConfig(env).paypalMode).toBe("simulator");
    },
  );

  it("refuses to start on a public PUBLIC_URL with no mode, saying what to set", () => {
    const start = () => loadConfig({ DATA_DIR: dir(), PUBLIC_URL: "https://agency.example" });
    expect(start).toThrow(ConfigError);
    expect(start).toThrow(/PAYPAL_MODE.*live.*sandbox.*simulator/s);
  });

  it("takes an explicit mode on a public address, the simulator included", () => {
    for (const mode of ["live", "sandbox", "simulator"] as const) {
      expect(loadConfig({ DATA_DIR: dir(), PUBLIC_URL: "https://agency.example", PAYPAL_MODE: mode }).paypalMode).toBe(
        mode,
      );
    }
  });
});
