import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdirSync, mkdtempSync, rmSync, statSync } from "node:fs";
import { createServer } from "node:net";
import { tmpdir } from "node:os";
import path from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import type { ClientConfig } from "pg";
import type { ServerBuild } from "react-router";
import { buildIsCurrent } from "#scripts/build-state.mjs";

export const ROOT = path.resolve(path.dirname(fileURLToPath(import.meta.url)), "../..");

/**
 * The production build, built first when the sources changed since it was made. Test files that run at the same time
 * build it once: the first takes a lock (an atomic mkdir, given up after ten minutes by a process that died holding
 * it), the others wait for it and then find the build current.
 */
export async function builtApp(): Promise<ServerBuild> {
  const lock = path.join(ROOT, "node_modules/.cache/atelier-build.lock");
  mkdirSync(path.dirname(lock), { recursive: true });
  for (;;) {
    try {
      mkdirSync(lock);
      break;
    } catch (error) {
      if ((error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
      const age = Date.now() - (statSync(lock, { throwIfNoEntry: false })?.mtimeMs ?? Date.now());
      if (age > 10 * 60_000) rmSync(lock, { recursive: true, force: true });
      else await new Promise((resolve) => setTimeout(resolve, 500));
    }
  }
  try {
    if (
      !buildIsCurrent() &&
      spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "ignore" }).status !== 0
    )
      throw new Error("npm run build failed");
  } finally {
    rmSync(lock, { recursive: true, force: true });
  }
  return (await import(pathToFileURL(path.join(ROOT, "build/server/index.js")).href)) as ServerBuild;
}

export async function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const s = createServer();
    s.listen(0, "127.0.0.1", () => {
      const port = (s.address() as { port: number }).port;
      s.close(() => resolve(port));
    });
    s.on("error", reject);
  });
}

export interface RunningServer {
  url: string;
  port: number;
  dataDir: string;
  process: ChildProcess;
  output: () => string;
  stop(signal?: NodeJS.Signals): Promise<number | null>;
}

/** Starts the built server (build/server/main.js) as `npm start` would, and waits until /healthz answers ok. */
export async function startBuiltServer(
  /** Settings over the test's own environment; undefined removes one (NODE_ENV, say). */
  env: Record<string, string | undefined> = {},
  options: { dataDir?: string } = {},
): Promise<RunningServer> {
  const port = await freePort();
  const dataDir = options.dataDir ?? mkdtempSync(path.join(tmpdir(), "atelier-e2e-"));
  let out = "";
  const child = spawn(process.execPath, [path.join(ROOT, "build/server/main.js")], {
    cwd: ROOT,
    env: {
      ...process.env,
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: `http://127.0.0.1:${port}`,
      DATA_DIR: dataDir,
      LOG_LEVEL: "info",
      // As the in-process test app: staff sign in with a password alone unless a test asks ADMIN_2FA=required.
      ADMIN_2FA: "optional",
      ...env,
    },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const url = `http://127.0.0.1:${port}`;
  const exited = new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code)));
  const deadline = Date.now() + 60_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`The server exited (${child.exitCode}):\n${out}`);
    try {
      const res = await fetch(`${url}/healthz`);
      if (res.ok) break;
    } catch {
      /* not listening yet */
    }
    if (Date.now() > deadline) {
      child.kill("SIGKILL");
      throw new Error(`The server did not become healthy in 60 s:\n${out}`);
    }
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    url,
    port,
    dataDir,
    process: child,
    output: () => out,
    async stop(signal = "SIGTERM") {
      if (child.exitCode === null) child.kill(signal);
      const code = await exited;
      if (!options.dataDir) rmSync(dataDir, { recursive: true, force: true });
      return code;
    },
  };
}

/** A postgres:// address for a database of the test server (socket or URL). */
export function databaseUrl(config: ClientConfig, database: string): string {
  if (config.connectionString) {
    const url = new URL(config.connectionString);
    url.pathname = `/${database}`;
    return url.toString();
  }
  const password = typeof config.password === "string" ? config.password : "";
  const auth = `${encodeURIComponent(config.user ?? "postgres")}:${encodeURIComponent(password)}`;
  return `postgresql://${auth}@localhost:${config.port ?? 5432}/${database}?host=${encodeURIComponent(config.host ?? "")}`;
}
