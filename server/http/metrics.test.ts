import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { bearerMatches, CONTENT_TYPE, ownMetrics, startMetricsServer } from "./metrics";
import { recordRequest } from "../lib/metrics";

const TOKEN = "t".repeat(40);
let close: (() => Promise<void>) | undefined;
afterEach(async () => {
  await close?.();
  close = undefined;
});

async function metricsPort(token?: string) {
  const started = await startMetricsServer({ host: "127.0.0.1", port: 0, token, text: ownMetrics });
  close = started.close;
  return `http://127.0.0.1:${started.port}`;
}

describe("the metrics token", () => {
  it("is a bearer token compared whole", () => {
    expect(bearerMatches(`Bearer ${TOKEN}`, TOKEN)).toBe(true);
    expect(bearerMatches(`bearer  ${TOKEN} `, TOKEN)).toBe(true);
    expect(bearerMatches(`Bearer ${TOKEN}x`, TOKEN)).toBe(false);
    expect(bearerMatches(`Bearer ${TOKEN.slice(1)}`, TOKEN)).toBe(false);
    expect(bearerMatches(`Basic ${TOKEN}`, TOKEN)).toBe(false);
    expect(bearerMatches(TOKEN, TOKEN)).toBe(false);
    expect(bearerMatches(undefined, TOKEN)).toBe(false);
  });
});

describe("the metrics port (METRICS_PORT)", () => {
  it("answers /metrics in Prometheus's text format, and nothing else", async () => {
    recordRequest("GET", "/item/:id", 200, 0.003);
    const url = await metricsPort();
    const res = await fetch(`${url}/metrics`);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe(CONTENT_TYPE);
    const text = await res.text();
    expect(text).toMatch(/^# HELP atelier_http_request_duration_seconds /m);
    expect(text).toContain(
      'atelier_http_request_duration_seconds_count{method="GET",route="/item/:id",status="200"} 1',
    );
    expect((await fetch(`${url}/`)).status).toBe(404);
    expect((await fetch(`${url}/metrics`, { method: "POST" })).status).toBe(404);
  });

  it("asks for the token too when METRICS_TOKEN is set", async () => {
    const url = await metricsPort(TOKEN);
    const refused = await fetch(`${url}/metrics`);
    expect(refused.status).toBe(401);
    expect(refused.headers.get("www-authenticate")).toBe('Bearer realm="metrics"');
    expect(await refused.text()).not.toContain("atelier_");
    expect((await fetch(`${url}/metrics`, { headers: { authorization: "Bearer wrong" } })).status).toBe(401);
    expect((await fetch(`${url}/metrics`, { headers: { authorization: `Bearer ${TOKEN}` } })).status).toBe(200);
  });
});

describe("the metrics settings", () => {
  const settings = (env: Record<string, string>) =>
    loadConfig({ NODE_ENV: "test", DATA_DIR: mkdtempSync(path.join(tmpdir(), "atelier-metrics-")), ...env }).metrics;

  it("are off unless set: no port, no token, the loopback interface", () => {
    expect(settings({})).toEqual({ port: undefined, host: "127.0.0.1", token: undefined });
    expect(settings({ METRICS_PORT: "9464", METRICS_HOST: "10.0.0.5", METRICS_TOKEN: TOKEN })).toEqual({
      port: 9464,
      host: "10.0.0.5",
      token: TOKEN,
    });
  });

  it("refuse a token too short to be one, or with spaces, and a port that is none, naming the variable", () => {
    expect(() => settings({ METRICS_TOKEN: "secret" })).toThrow(/METRICS_TOKEN: must be 32 to 200 printable/);
    expect(() => settings({ METRICS_TOKEN: `${TOKEN} ${TOKEN}` })).toThrow(/METRICS_TOKEN/);
    expect(() => settings({ METRICS_PORT: "99999" })).toThrow(/METRICS_PORT/);
  });
});
