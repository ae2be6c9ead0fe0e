import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { describe, expect, it } from "vitest";
import { loadConfig } from "./config";
import { RETRY_SCHEDULE_SECONDS } from "#domain/webhooks.ts";

const dir = () => mkdtempSync(path.join(tmpdir(), "atelier-config-webhooks-"));

describe("the webhooks' settings", () => {
  it("refuses private addresses, retries on Standard Webhooks' schedule and waits 10 s unless told", () => {
    expect(loadConfig({ DATA_DIR: dir() }).webhooks).toEqual({
      allowPrivate: false,
      retrySchedule: RETRY_SCHEDULE_SECONDS,
      timeoutMs: 10_000,
    });
  });

  it("reads the local-testing switch, a schedule in seconds and a timeout", () => {
    const c = loadConfig({
      DATA_DIR: dir(),
      WEBHOOKS_ALLOW_PRIVATE: "1",
      WEBHOOKS_RETRY_SCHEDULE: "0, 1,2.5",
      WEBHOOKS_TIMEOUT_SECONDS: "2",
    });
    expect(c.webhooks).toEqual({ allowPrivate: true, retrySchedule: [0, 1, 2.5], timeoutMs: 2000 });
    expect(loadConfig({ DATA_DIR: dir(), WEBHOOKS_ALLOW_PRIVATE: "true" }).webhooks.allowPrivate).toBe(true);
  });

  it("refuses a schedule that is no list of seconds, and a switch it does not know, naming the variable", () => {
    expect(() => loadConfig({ DATA_DIR: dir(), WEBHOOKS_RETRY_SCHEDULE: "5m,1h" })).toThrow(
      /WEBHOOKS_RETRY_SCHEDULE: must be up to 30 waits in seconds/,
    );
    expect(() => loadConfig({ DATA_DIR: dir(), WEBHOOKS_ALLOW_PRIVATE: "yes" })).toThrow(/WEBHOOKS_ALLOW_PRIVATE/);
  });
});
