import { get } from "node:http";
import { describe, expect, it } from "vitest";
import { freePort, startBuiltServer } from "../support/server";

/**
 * Issue 24, parts 2 and 3, as `npm start` runs: two worker processes behind one port. /metrics adds up both workers'
 * figures, on the metrics port (METRICS_PORT) and on the site's port for the bearer of METRICS_TOKEN, and every
 * request writes one JSON access line with the id its response carries.
 */
const TOKEN = "e2e-metrics-token-0123456789abcdef";
const bearer = { authorization: `Bearer ${TOKEN}` };

/** A GET on a connection of its own (cluster hands each new connection to a worker in turn), with its id. */
const getHome = (url: string) =>
  new Promise<{ status: number; id: string }>((resolve, reject) => {
    get(url + "/", { agent: false }, (res) => {
      res.resume();
      res.on("end", () => resolve({ status: res.statusCode ?? 0, id: String(res.headers["x-request-id"]) }));
    }).on("error", reject);
  });

/** The value of one series in a Prometheus text answer. */
const series = (text: string, name: string) => {
  const line = text.split("\n").find((l) => l.startsWith(name + " "));
  return line === undefined ? undefined : Number(line.slice(name.length + 1));
};

describe("observability with worker processes", () => {
  it("sums every worker's metrics on both doors and writes one access line per request", async () => {
    const metricsPort = await freePort();
    const app = await startBuiltServer({
      WEB_CONCURRENCY: "2",
      METRICS_PORT: String(metricsPort),
      METRICS_TOKEN: TOKEN,
    });
    try {
      await expect.poll(() => app.output(), { timeout: 30_000 }).toContain('"processes":2');
      expect(app.output()).toContain(`"metrics":"http://127.0.0.1:${metricsPort}/metrics"`);

      const answers: { status: number; id: string }[] = [];
      for (let i = 0; i < 40; i++) answers.push(await getHome(app.url));
      expect(answers.every((a) => a.status === 200)).toBe(true);

      // One access line per request, with the response's id; both workers served some.
      const accessLines = () =>
        app
          .output()
          .split("\n")
          .filter((l) => l.startsWith("{") && l.includes('"msg":"request"'))
          .map((l) => JSON.parse(l) as { reqId: string; route: string; status: number; pid: number });
      await expect
        .poll(() => answers.filter((a) => accessLines().some((l) => l.reqId === a.id)).length, { timeout: 5_000 })
        .toBe(40);
      const home = accessLines().filter((l) => answers.some((a) => a.id === l.reqId));
      expect(home.every((l) => l.route === "/" && l.status === 200)).toBe(true);
      expect(new Set(home.map((l) => l.pid)).size, "served by both workers").toBe(2);

      // The metrics port: the token too, since it is set; then both workers' requests in one sum.
      const port = `http://127.0.0.1:${metricsPort}/metrics`;
      expect((await fetch(port)).status).toBe(401);
      const summed = await (await fetch(port, { headers: bearer })).text();
      expect(series(summed, 'atelier_http_request_duration_seconds_count{method="GET",route="/",status="200"}')).toBe(
        40,
      );
      expect(series(summed, 'atelier_page_cache_requests_total{outcome="hit"}')).toBeGreaterThanOrEqual(38);
      expect(series(summed, 'atelier_db_pool_max{pool="app"}')).toBe(20); // two pools of 10
      expect(series(summed, "process_resident_memory_bytes")).toBeGreaterThan(50_000_000);
      expect(series(summed, "nodejs_eventloop_lag_p99_seconds")).toBeGreaterThanOrEqual(0);
      expect(summed).toMatch(/^atelier_jobs\{queue="send-mail",state="queued"\} \d+$/m);

      // The site's port: only with the token, answered by a worker that asks the first process for the sum.
      expect((await fetch(app.url + "/metrics")).status).toBe(401);
      const viaSite = await (await fetch(app.url + "/metrics", { headers: bearer })).text();
      expect(series(viaSite, 'atelier_http_request_duration_seconds_count{method="GET",route="/",status="200"}')).toBe(
        40,
      );
    } finally {
      expect(await app.stop("SIGTERM"), `clean stop:\n${app.output().slice(-2000)}`).toBe(0);
    }
  }, 120_000);
});
