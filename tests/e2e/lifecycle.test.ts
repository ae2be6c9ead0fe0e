import { spawn, spawnSync } from "node:child_process";
import { Agent, get, request } from "node:http";
import { chmodSync, existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { ROOT, startBuiltServer } from "../support/server";
import { gate } from "../support/wait";

/** The production start on the embedded PostgreSQL: first start, second start, kill -9, clean stop, outage. */
// A folder per attempt: a retried attempt starts on an empty DATA_DIR again, as the first did.
const dataDirs: string[] = [];
let dataDir = "";
afterAll(() => dataDirs.forEach((dir) => rmSync(dir, { recursive: true, force: true })));

const postmasterPid = () =>
  Number(readFileSync(path.join(dataDir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
/** Running: a process that exists and is not a zombie (a killed orphan that PID 1 has not reaped yet is dead). */
const alive = (pid: number) => {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    if (/^[ZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3))) return false;
  } catch {
    /* no /proc entry: the signal below decides */
  }
  try {
    process.kill(pid, 0);
    return true;
  } catch {
    return false;
  }
};

describe("the embedded database lifecycle", () => {
  it("initialises, seeds, refuses a second start, survives kill -9, stops cleanly, reports an outage", async () => {
    dataDir = mkdtempSync(path.join(tmpdir(), "atelier-life-"));
    dataDirs.push(dataDir);
    chmodSync(dataDir, 0o700); // as mkdtemp makes it: the app must make it reachable for the postgres user itself
    // First start on an empty DATA_DIR: cluster made, migrations applied, demo content seeded.
    const first = await startBuiltServer({}, { dataDir });
    // The log is written in batches (at least every 250 ms, decision 034): a line may follow readiness by that much.
    await expect.poll(() => first.output()).toContain("initialised the embedded PostgreSQL cluster");
    await expect.poll(() => first.output()).toContain("seeded the demo content");
    expect(existsSync(path.join(dataDir, "postgres", "PG_VERSION"))).toBe(true);
    // The built server names the version and commit build/version.json holds (scripts/version.mjs).
    const version = JSON.parse(readFileSync(path.join(ROOT, "build/version.json"), "utf8")) as object;
    expect(await (await fetch(first.url + "/healthz")).json()).toEqual({ status: "ok", ...version });
    const home = await (await fetch(first.url + "/")).text();
    expect(home).toContain("Best Pricing For Business");

    // A second start on the same DATA_DIR refuses with a clear message.
    const second = spawnSync(process.execPath, [path.join(ROOT, "build/server/main.js")], {
      env: { ...process.env, DATA_DIR: dataDir, PORT: "0" },
      encoding: "utf8",
      timeout: 30_000,
    });
    expect(second.status, `second start: ${second.stderr}`).toBe(1);
    expect(second.stderr).toContain(`Another app process (PID ${first.process.pid}) is already running on DATA_DIR`);

    // kill -9 leaves the database server running; the next start stops it and comes up by itself.
    const orphan = postmasterPid();
    expect(await first.stop("SIGKILL"), "kill -9 exit code").toBe(null);
    expect(alive(orphan), "the database server outlives a killed app").toBe(true);
    const again = await startBuiltServer({}, { dataDir });
    await expect
      .poll(() => again.output(), { message: "restart after kill -9" })
      .toContain("stopping the database server left running by an earlier start");
    expect(again.output()).not.toContain("seeded the demo content");
    expect(alive(orphan), "the orphan was stopped").toBe(false);
    expect(await (await fetch(again.url + "/api/pricings")).json()).toHaveLength(3);

    // The database goes away: health answers 503.
    const pid = postmasterPid();
    process.kill(pid, "SIGQUIT");
    await expect
      .poll(async () => (await fetch(again.url + "/healthz")).status, {
        timeout: 30_000,
        message: "health during an outage",
      })
      .toBe(503);

    // SIGTERM stops the app cleanly even then, and releases the lock.
    expect(await again.stop("SIGTERM"), `clean stop during an outage:\n${again.output().slice(-2000)}`).toBe(0);
    expect(existsSync(path.join(dataDir, "app.lock"))).toBe(false);

    // And a clean start after a clean stop leaves nothing running behind it.
    const last = await startBuiltServer({}, { dataDir });
    const lastPid = postmasterPid();
    expect(await last.stop("SIGINT"), `clean stop:\n${last.output().slice(-2000)}`).toBe(0);
    expect(alive(lastPid), "no database server left behind").toBe(false);
  }, 180_000); // four starts, one of them a first start (initdb), and an outage: slow on a loaded two-core machine
});

/** The node processes a process started (its workers), by their PIDs. */
const workersOf = (pid: number) =>
  spawnSync("pgrep", ["-P", String(pid)], { encoding: "utf8" })
    .stdout.split("\n")
    .filter(Boolean)
    .map(Number)
    .filter((child) => {
      try {
        // A cluster worker carries NODE_UNIQUE_ID. A process the app spawns (initdb, the database server) is, for the
        // moment between its fork and its exec, a copy of the app with the same command line but not that variable.
        return (
          readFileSync(`/proc/${child}/cmdline`, "utf8").includes("build/server/main.js") &&
          readFileSync(`/proc/${child}/environ`, "utf8")
            .split("\0")
            .some((v) => v.startsWith("NODE_UNIQUE_ID="))
        );
      } catch {
        return false;
      }
    });

describe("several processes (WEB_CONCURRENCY)", () => {
  it("serve from workers on one port, replace a worker that dies, and stop with everything behind them", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atelier-workers-"));
    let app: Awaited<ReturnType<typeof startBuiltServer>> | undefined;
    let started: number[] = [];
    // A fresh connection each time: a kept-alive one may belong to the worker that was just killed. No answer within
    // 5 s counts as none (0): a connection handed to a worker in the moment it dies is lost, and must not hang the test.
    const status = (address: string) =>
      new Promise<number>((resolve) => {
        const req = get(address, { agent: false, timeout: 5_000 }, (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
        });
        req.on("timeout", () => req.destroy());
        req.on("error", () => resolve(0));
      });
    try {
      app = await startBuiltServer({ WEB_CONCURRENCY: "2" }, { dataDir: dir });
      // Health answers once one worker listens; the first process says it is ready once both do.
      await expect.poll(() => app!.output(), { timeout: 30_000 }).toContain('"processes":2');
      const primary = app.process.pid!;
      const workers = workersOf(primary);
      started = [...workers];
      expect(workers, "two worker processes").toHaveLength(2);
      for (let i = 0; i < 20; i++) expect(await status(app.url + "/")).toBe(200);

      // A worker killed outright is replaced; the other one answers meanwhile.
      process.kill(workers[0]!, "SIGKILL");
      await expect.poll(() => status(app!.url + "/healthz"), { timeout: 15_000 }).toBe(200);
      await expect
        .poll(() => workersOf(primary).filter((pid) => !workers.includes(pid)).length, {
          timeout: 30_000,
          message: "a new worker replaces the killed one",
        })
        .toBe(1);
      started.push(...workersOf(primary));
      await expect.poll(() => status(app!.url + "/healthz"), { timeout: 30_000 }).toBe(200);
      expect(workersOf(primary)).toHaveLength(2);
      await expect.poll(() => app!.output()).toContain("a worker process stopped");

      // SIGTERM: the workers stop, then the database, and the lock is released.
      const database = Number(readFileSync(path.join(dir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
      const running = workersOf(primary);
      expect(await app.stop("SIGTERM"), `clean stop:\n${app.output().slice(-2000)}`).toBe(0);
      for (const pid of running) expect(alive(pid), `worker ${pid} stopped`).toBe(false);
      expect(alive(database), "no database server left behind").toBe(false);
      expect(existsSync(path.join(dir, "app.lock"))).toBe(false);
    } finally {
      // Whatever failed above, nothing of this app keeps running into the other tests.
      if (app && app.process.exitCode === null && app.process.signalCode === null) await app.stop("SIGTERM");
      for (const pid of started) if (alive(pid)) process.kill(pid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);

  it("a stop asked while the workers start stops them and the database cleanly", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atelier-early-stop-"));
    const child = spawn(process.execPath, [path.join(ROOT, "build/server/main.js")], {
      env: { ...process.env, NODE_ENV: "production", WEB_CONCURRENCY: "2", DATA_DIR: dir, PORT: "0" },
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
    const forked: number[] = [];
    try {
      // The moment the first worker exists (it has not opened the port yet), the app is asked to stop.
      await expect.poll(() => forked.push(...workersOf(child.pid!)) > 0, { timeout: 60_000, interval: 20 }).toBe(true);
      const database = Number(readFileSync(path.join(dir, "postgres", "postmaster.pid"), "utf8").split("\n")[0]);
      child.kill("SIGTERM");
      expect(await exited, `early stop:\n${out.slice(-2000)}`).toBe(0);
      forked.push(...workersOf(child.pid!));
      for (const pid of forked) await expect.poll(() => alive(pid), { message: `worker ${pid} stopped` }).toBe(false);
      expect(alive(database), "no database server left behind").toBe(false);
      expect(existsSync(path.join(dir, "app.lock"))).toBe(false);
    } finally {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
      for (const pid of forked) if (alive(pid)) process.kill(pid, "SIGKILL");
      rmSync(dir, { recursive: true, force: true });
    }
  }, 120_000);
});

describe("a stop while a request is in flight", () => {
  it("answers it, then closes its kept-alive connection at once instead of waiting out the keep-alive", async () => {
    const app = await startBuiltServer();
    const body = JSON.stringify({ name: "Ann", email: "ann@example.org", subject: "Hello", message: "In flight" });
    const agent = new Agent({ keepAlive: true });
    try {
      const sentHalf = gate();
      // Half the body is sent: the request is in flight (not idle) when the stop comes, like the app's own call to its
      // PayPal simulator at the start.
      const answered = new Promise<number>((resolve, reject) => {
        const req = request(
          `${app.url}/api/add-message`,
          { method: "POST", agent, headers: { "content-type": "application/json", "content-length": body.length } },
          (res) => {
            res.resume();
            res.on("end", () => resolve(res.statusCode ?? 0));
          },
        );
        req.on("error", reject);
        req.write(body.slice(0, 10), () => sentHalf.open());
        setTimeout(() => req.end(body.slice(10)), 1_000);
      });
      // Its first half handed to the socket, then a request made after it answered: the server has read the first.
      await sentHalf.opened;
      expect((await fetch(`${app.url}/healthz`)).status).toBe(200);
      const asked = Date.now();
      const stopped = app.stop("SIGINT");
      expect(await answered).toBe(201);
      expect(await stopped, `clean stop:\n${app.output().slice(-2000)}`).toBe(0);
      // Without closing the connection once it went idle, the stop waited for it until the 20 s limit (exit 1).
      expect(Date.now() - asked).toBeLessThan(10_000);
    } finally {
      agent.destroy();
      if (app.process.exitCode === null) app.process.kill("SIGKILL");
    }
  }, 60_000);
});
