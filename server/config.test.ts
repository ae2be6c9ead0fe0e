import { existsSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { ConfigError, loadConfig } from "./config";

const dir = () => mkdtempSync(path.join(tmpdir(), "atelier-config-"));
const CREDENTIALS = { PAYPAL_CLIENT_ID: "client", PAYPAL_CLIENT_SECRET: "secret" };
const LIVE = { PAYPAL_MODE: "live", ...CREDENTIALS };

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
    expect(loadConfig({ DATA_DIR: dir(), PUBLIC_URL: "https://agency.example/", ...LIVE }).publicUrl).toBe(
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

  it("leaves the auth secret to the database unless AUTH_SECRET is set, and writes no secret file", () => {
    const d = dir();
    expect(loadConfig({ DATA_DIR: d }).authSecret).toBeUndefined();
    expect(existsSync(path.join(d, "secrets"))).toBe(false);
    expect(loadConfig({ DATA_DIR: d, AUTH_SECRET: "s".repeat(32) }).authSecret).toBe("s".repeat(32));
  });

  it("reads AUTH_SECRET, DATABASE_URL and SMTP_URL from the files their _FILE variables name", () => {
    const d = dir();
    const file = (name: string, text: string) => {
      writeFileSync(path.join(d, name), text);
      return path.join(d, name);
    };
    const c = loadConfig({
      DATA_DIR: d,
      AUTH_SECRET_FILE: file("auth", `${"k".repeat(40)}\n`),
      DATABASE_URL_FILE: file("db", "postgresql://app:pa%24s@db:5432/atelier\n"),
      SMTP_URL_FILE: file("smtp", "smtps://mailer:secret@smtp.example:465"),
    });
    expect(c.authSecret).toBe("k".repeat(40));
    expect(c.databaseUrl).toBe("postgresql://app:pa%24s@db:5432/atelier");
    expect(c.smtpUrl).toBe("smtps://mailer:secret@smtp.example:465");
  });

  it("refuses a _FILE that cannot be read, one set with its variable, or a bad value in a file, never showing it", () => {
    const d = dir();
    const missing = path.join(d, "nowhere");
    expect(() => loadConfig({ DATA_DIR: d, AUTH_SECRET_FILE: missing })).toThrow(
      `AUTH_SECRET_FILE: ${missing} cannot be read (ENOENT)`,
    );
    writeFileSync(path.join(d, "auth"), "k".repeat(40));
    expect(() =>
      loadConfig({ DATA_DIR: d, AUTH_SECRET: "s".repeat(32), AUTH_SECRET_FILE: path.join(d, "auth") }),
    ).toThrow("AUTH_SECRET and AUTH_SECRET_FILE: both are set; keep one");
    writeFileSync(path.join(d, "short"), "hunter2-is-short");
    let message = "";
    try {
      loadConfig({ DATA_DIR: d, AUTH_SECRET_FILE: path.join(d, "short") });
    } catch (error) {
      message = (error as Error).message;
    }
    expect(message).toContain(`AUTH_SECRET_FILE (${path.join(d, "short")}): must be at least 32 characters`);
    expect(message).not.toContain("hunter2");
  });

  it("sizes each process's pool with DATABASE_POOL_SIZE (10 by default, 1 to 200)", () => {
    expect(loadConfig({ DATA_DIR: dir() }).databasePoolSize).toBe(10);
    expect(loadConfig({ DATA_DIR: dir(), DATABASE_POOL_SIZE: "4" }).databasePoolSize).toBe(4);
    expect(() => loadConfig({ DATA_DIR: dir(), DATABASE_POOL_SIZE: "0" })).toThrow("DATABASE_POOL_SIZE");
    expect(loadConfig({ DATA_DIR: dir(), DATABASE_MAX_CONNECTIONS: "400" }).databaseMaxConnections).toBe(400);
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
      expect(
        loadConfig({ DATA_DIR: dir(), PUBLIC_URL: "https://agency.example", ...CREDENTIALS, PAYPAL_MODE: mode })
          .paypalMode,
      ).toBe(mode);
    }
  });

  it("refuses live and sandbox without the REST app's credentials, naming them (issue 34 part 7)", () => {
    for (const mode of ["live", "sandbox"]) {
      const start = () => loadConfig({ DATA_DIR: dir(), PUBLIC_URL: "https://agency.example", PAYPAL_MODE: mode });
      expect(start).toThrow(ConfigError);
      expect(start).toThrow(/PAYPAL_CLIENT_ID and PAYPAL_CLIENT_SECRET \(or PAYPAL_CLIENT_SECRET_FILE\)/);
      expect(start).toThrow(mode === "live" ? /Live/ : /Sandbox/);
    }
    const noSecret = () =>
      loadConfig({ DATA_DIR: dir(), PUBLIC_URL: "https://agency.example", PAYPAL_MODE: "live", PAYPAL_CLIENT_ID: "A" });
    expect(noSecret).toThrow(/set PAYPAL_CLIENT_SECRET \(or PAYPAL_CLIENT_SECRET_FILE\), the client id/);
  });

  it("reads the credentials, the secret from a file, and the webhook id; the simulator needs none", () => {
    const secret = path.join(dir(), "paypal-secret");
    writeFileSync(secret, "file-secret\n");
    const c = loadConfig({
      DATA_DIR: dir(),
      PUBLIC_URL: "https://agency.example",
      PAYPAL_MODE: "live",
      PAYPAL_CLIENT_ID: "client",
      PAYPAL_CLIENT_SECRET_FILE: secret,
      PAYPAL_WEBHOOK_ID: "8PT597110X687430LKGECATA",
    });
    expect(c.paypalCredentials).toEqual({ clientId: "client", clientSecret: "file-secret" });
    expect(c.paypalWebhookId).toBe("8PT597110X687430LKGECATA");
    expect(loadConfig({ DATA_DIR: dir() })).toMatchObject({ paypalCredentials: null, paypalWebhookId: null });
    expect(() => loadConfig({ DATA_DIR: dir(), PAYPAL_WEBHOOK_ID: "not an id!" })).toThrow(/PAYPAL_WEBHOOK_ID/);
  });
});
