import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { AggregatorRegistry } from "@prometheus-io/client";
import { afterEach, describe, expect, it } from "vitest";
import { loadConfig } from "../config";
import { bearerMatches, CONTENT_TYPE, ownMetrics, startMetricsServer } from "./metrics";
import { collectProcessMetrics, countMail, recordBackup, recordRequest, registry } from "../lib/metrics";

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

describe("the metric names (issue 38: prom-client became @prometheus-io/client)", () => {
  it("are those dashboards and alert rules read (docs/operations/observability.md), Node's and the process's too", async () => {
    collectProcessMetrics();
    const text = await ownMetrics();
    const types = new Map([...text.matchAll(/^# TYPE (\S+) (\S+)$/gm)].map((m) => [m[1]!, m[2]!]));
    expect(Object.fromEntries([...types].filter(([name]) => name.startsWith("atelier_")))).toEqual({
      atelier_http_request_duration_seconds: "histogram",
      atelier_page_cache_requests_total: "counter",
      atelier_mails_total: "counter",
      atelier_job_failures_total: "counter",
      atelier_db_pool_acquire_seconds: "histogram",
      atelier_jobs: "gauge",
      atelier_backup_last_success_timestamp_seconds: "gauge",
      atelier_backup_age_seconds: "gauge",
      atelier_db_pool_connections: "gauge",
      atelier_db_pool_connections_in_use: "gauge",
      atelier_db_pool_waiting: "gauge",
      atelier_db_pool_max: "gauge",
    });
    for (const [name, type] of [
      ["nodejs_eventloop_lag_p99_seconds", "gauge"],
      ["nodejs_eventloop_lag_seconds", "gauge"],
      ["nodejs_heap_size_used_bytes", "gauge"],
      ["nodejs_heap_size_total_bytes", "gauge"],
      ["nodejs_external_memory_bytes", "gauge"],
      ["nodejs_gc_duration_seconds", "histogram"],
      ["nodejs_active_handles_total", "gauge"],
      ["nodejs_version_info", "gauge"],
      ["process_cpu_seconds_total", "counter"],
      ["process_resident_memory_bytes", "gauge"],
      ["process_start_time_seconds", "gauge"],
      ["process_open_fds", "gauge"],
    ]) {
      expect(types.get(name!), name).toBe(type);
    }
  });

  it("add up across worker processes as each says: counters summed, the backup's time the newest of them", async () => {
    countMail("sent");
    recordBackup(new Date("2026-11-29T03:00:00Z"));
    const one = await registry.getMetricsAsJSON();
    const sent = (metrics: Awaited<ReturnType<typeof registry.getMetricsAsJSON>>) =>
      metrics.find((m) => m.name === "atelier_mails_total")!.values.find((v) => v.labels.outcome === "sent")!.value;
    const summed = await AggregatorRegistry.aggregate([one, one]).getMetricsAsJSON();
    expect(sent(summed)).toBe(2 * sent(one));
    const backup = summed.find((m) => m.name === "atelier_backup_last_success_timestamp_seconds")!;
    expect(backup.values.map((v) => v.value)).toEqual([Date.parse("2026-11-29T03:00:00Z") / 1000]);
  });
});
