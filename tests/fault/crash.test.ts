import { spawn } from "node:child_process";
import { chmodSync, mkdtempSync, readFileSync, rmSync, statSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { afterAll, describe, expect, it } from "vitest";
import { startEmbeddedPostgres } from "#server/db/embedded.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { createTestDatabase } from "../support/db";
import { withClient } from "../support/global-db";
import { databaseUrl, freePort, ROOT, startBuiltServer } from "../support/server";
import { inject } from "vitest";
import { atRandomMoment, until } from "../support/wait";
import { LONG, runBuiltServer } from "./support";

/**
 * Issue 12: the app killed with kill -9 under write load (no acknowledged write may be lost), a crash that takes
 * the embedded database down with it (the next start must come up, D12), and a start on a port in use.
 * FAULT_LONG=1 runs the probe's counts (30 kill -9 runs, 10 crashes); CI runs 3 of each.
 */
const dataDir = mkdtempSync(path.join(tmpdir(), "atelier-crash-"));
chmodSync(dataDir, 0o755);
afterAll(() => rmSync(dataDir, { recursive: true, force: true }));
const ENV = { RATE_LIMIT_PUBLIC_FORMS: "1000000", SEED_DEMO_CONTENT: "false" };

/** Our own connection to the app's embedded database (socket in its folder, password in its secrets). */
async function query<T>(sql: string, params: unknown[] = []): Promise<T[]> {
  const client = new pg.Client({
    host: path.join(dataDir, "postgres"),
    port: 5432,
    user: "postgres",
    password: readFileSync(path.join(dataDir, "secrets", "postgres-password"), "utf8").trim(),
    database: "postgres",
  });
  await client.connect();
  try {
    return (await client.query(sql, params)).rows as T[];
  } finally {
    await client.end();
  }
}

describe("kill -9 under write load", () => {
  it("loses no acknowledged write", async () => {
    const runs = LONG ? 30 : 3;
    const acknowledged: string[] = [];
    let attempted = 0;
    for (let run = 0; run < runs; run++) {
      const server = await startBuiltServer(ENV, { dataDir });
      let stop = false;
      const writer = async (w: number) => {
        for (let n = 0; !stop; n++) {
          const subject = `run${run}-w${w}-n${n}`;
          attempted++;
          try {
            const res = await fetch(server.url + "/api/add-message", {
              method: "POST",
              headers: { "content-type": "application/json" },
              body: JSON.stringify({ name: "Load", email: "load@example.org", subject, message: "m" }),
            });
            if (res.status === 201) acknowledged.push(subject);
          } catch {
            return; // the app is gone
          }
        }
      };
      const writers = Array.from({ length: 4 }, (_, w) => writer(w));
      // Killed once writes are landing (more than the ten a run is expected to acknowledge), at no particular moment.
      const landed = acknowledged.length;
      await until("writes acknowledged", () => acknowledged.length > landed + 10, 30_000, 20);
      await atRandomMoment(600);
      await server.stop("SIGKILL");
      stop = true;
      await Promise.all(writers);
    }
    // One more start (it stops the orphaned database server) to count what survived.
    const last = await startBuiltServer(ENV, { dataDir });
    const stored = new Set((await query<{ subject: string }>("select subject from messages")).map((r) => r.subject));
    await last.stop();
    const lost = acknowledged.filter((s) => !stored.has(s));
    console.info(
      `kill -9 under write load: ${runs} runs, ${attempted} writes sent, ${acknowledged.length} acknowledged, ${lost.length} lost`,
    );
    expect(acknowledged.length).toBeGreaterThan(runs * 10);
    expect(lost).toEqual([]);
  });
});

describe("a crash that also kills the database", () => {
  it("the immediate restart waits for the dying postmaster and comes up every time (D12)", async () => {
    const runs = LONG ? 10 : 3;
    const failures: string[] = [];
    const restartMs: number[] = [];
    for (let run = 0; run < runs; run++) {
      const port = await freePort();
      // The app in a process group of its own, so that one kill -9 takes it, the postmaster and every backend.
      const child = spawn(process.execPath, [path.join(ROOT, "build/server/main.js")], {
        cwd: ROOT,
        env: {
          ...process.env,
          ...ENV,
          PORT: String(port),
          HOST: "127.0.0.1",
          PUBLIC_URL: `http://127.0.0.1:${port}`,
          DATA_DIR: dataDir,
        },
        stdio: "ignore",
        detached: true,
      });
      await until(
        "the app started",
        async () =>
          (await fetch(`http://127.0.0.1:${port}/healthz`).then(
            (r) => r.status,
            () => 0,
          )) === 200,
        60_000,
        100,
      );
      // Write load while it dies.
      const load = Array.from({ length: 20 }, () =>
        fetch(`http://127.0.0.1:${port}/api/add-message`, {
          method: "POST",
          headers: { "content-type": "application/json" },
          body: JSON.stringify({ name: "C", email: "c@example.org", subject: "crash", message: "m" }),
        }).catch(() => undefined),
      );
      process.kill(-child.pid!, "SIGKILL");
      await Promise.all(load);
      const started = Date.now();
      try {
        const again = await startBuiltServer(ENV, { dataDir });
        restartMs.push(Date.now() - started);
        await again.stop();
      } catch (error) {
        failures.push(`run ${run}: ${String(error).slice(0, 600)}`);
      }
    }
    console.info(
      `crash with the database: ${runs} runs, ${failures.length} failed restarts, restart in ${restartMs.join(", ")} ms`,
    );
    expect(failures).toEqual([]);
  });
});

describe("a postmaster that died but was not reaped (D12)", () => {
  it("a start whose postmaster.pid names a zombie comes up", async () => {
    const dir = mkdtempSync(path.join(tmpdir(), "atelier-zombie-"));
    chmodSync(dir, 0o755);
    try {
      const first = await startEmbeddedPostgres(dir, silentLogger);
      const pidFile = path.join(first.dataDir, "postmaster.pid");
      const lines = readFileSync(pidFile, "utf8").split("\n");
      const owner = statSync(pidFile); // written by the postmaster itself: the database's user
      await first.stop();
      // A zombie of the database's user (PostgreSQL ignores PIDs it may not signal): a child killed while its
      // parent (a shell turned into `sleep`) never collects it.
      const holder = spawn("sh", ["-c", "sleep 300 & echo $!; exec sleep 300"], {
        stdio: ["ignore", "pipe", "ignore"],
        ...(process.getuid?.() === 0 ? { uid: owner.uid, gid: owner.gid } : {}),
      });
      const zombie = Number(
        await new Promise<string>((resolve) => holder.stdout!.once("data", (d) => resolve(String(d)))),
      );
      // Only once the shell has become `sleep` (which never reaps): a shell still running would reap its child.
      await expect.poll(() => readFileSync(`/proc/${holder.pid}/comm`, "utf8").trim()).toBe("sleep");
      process.kill(zombie, "SIGKILL");
      await expect.poll(() => readFileSync(`/proc/${zombie}/stat`, "utf8").split(") ")[1]![0]).toBe("Z");
      // What a crash that killed the database leaves: postmaster.pid naming the dead, unreaped postmaster.
      writeFileSync(pidFile, [String(zombie), ...lines.slice(1)].join("\n"));
      const again = await startEmbeddedPostgres(dir, silentLogger);
      await withClient(again.connection, (c) => c.query("select 1"));
      await again.stop();
      holder.kill("SIGKILL");
    } finally {
      rmSync(dir, { recursive: true, force: true });
    }
  });
});

describe("a port already in use", () => {
  it("stops the start with a message naming the port", async () => {
    const blocker = createServer();
    const port = await new Promise<number>((resolve) =>
      blocker.listen(0, "127.0.0.1", () => resolve((blocker.address() as { port: number }).port)),
    );
    const db = await createTestDatabase();
    try {
      const { admin } = inject("testDb");
      const { code, output } = await runBuiltServer(
        { PORT: String(port), DATABASE_URL: databaseUrl(admin, db.name), SEED_DEMO_CONTENT: "false" },
        30_000,
      );
      expect(code, output).toBe(1);
      expect(output).toContain(`Port ${port} on 127.0.0.1 is already in use`);
      expect(output).not.toContain("serving http");
    } finally {
      blocker.close();
      await db.drop();
    }
  });
});
