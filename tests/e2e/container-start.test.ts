import { spawn, spawnSync } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, inject, it } from "vitest";
import { createTestDatabase } from "../support/db";
import { databaseUrl, freePort, ROOT } from "../support/server";
import { versionLabel, type AppVersion } from "#server/version.ts";

/**
 * Issue 24, part 6, where no container engine runs (CI): the image's start command and health check, read from the
 * Dockerfile's last stage and run as it runs them, with its environment, against PostgreSQL, its DATABASE_URL read
 * from a file as compose.yaml gives it. Only HOST is loopback here (the image listens on 0.0.0.0 inside its network).
 */
const dockerfile = readFileSync(path.join(ROOT, "Dockerfile"), "utf8").replace(/\\\n\s*/g, " ");
const runtime = dockerfile.slice(dockerfile.lastIndexOf("\nFROM "));
const json = (instruction: string) => JSON.parse(new RegExp(`^${instruction} (\\[.*\\])$`, "m").exec(runtime)![1]!);
const cmd = json("CMD") as string[];
const healthcheck = (/^HEALTHCHECK .*?CMD (\[.*\])$/m.exec(runtime)?.[1] ?? "[]") as string;
const env = Object.fromEntries(
  [...(/^ENV (.*)$/m.exec(runtime)?.[1] ?? "").matchAll(/(\w+)=(\S+)/g)].map((m) => [m[1]!, m[2]!]),
);

let database: Awaited<ReturnType<typeof createTestDatabase>>;
const dir = mkdtempSync(path.join(tmpdir(), "atelier-container-"));
beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(async () => {
  await database?.drop();
  rmSync(dir, { recursive: true, force: true });
});

describe("the container image's start command", () => {
  it("is the built server, as the node user would run it, with the image's environment", () => {
    expect(cmd).toEqual(["node", "build/server/main.js"]);
    expect(env).toMatchObject({ NODE_ENV: "production", HOST: "0.0.0.0", PORT: "3000", DATA_DIR: "/data" });
    expect(runtime).toMatch(/^USER node$/m);
    // What the built server reads from disk at run time is copied into the image.
    for (const needed of ["build", "node_modules", "drizzle", "server/catalogue/categories", "public"])
      expect(runtime).toContain(`COPY --from=build /app/${needed} ./${needed}`);
  });

  it("starts on PostgreSQL with DATABASE_URL_FILE, passes its health check, and stops cleanly on SIGTERM", async () => {
    const port = await freePort();
    const secret = path.join(dir, "database_url");
    writeFileSync(secret, `${databaseUrl(inject("testDb").admin as never, database.name)}\n`);
    const environment: NodeJS.ProcessEnv = {
      ...process.env,
      ...env,
      HOST: "127.0.0.1",
      PORT: String(port),
      DATA_DIR: path.join(dir, "data"),
      DATABASE_URL_FILE: secret,
      AUTH_SECRET: "",
      WEB_CONCURRENCY: "2",
    };
    delete environment.DATABASE_URL;
    const [command, ...args] = cmd;
    // `node` is the image's Node 24; here the one running the tests.
    const child = spawn(command === "node" ? process.execPath : command!, args, {
      cwd: ROOT,
      env: environment,
      stdio: ["ignore", "pipe", "pipe"],
    });
    let out = "";
    child.stdout.on("data", (d) => (out += d));
    child.stderr.on("data", (d) => (out += d));
    const exited = new Promise<number | null>((resolve) => child.on("exit", resolve));
    try {
      await expect
        .poll(
          async () => {
            if (child.exitCode !== null) throw new Error(`the start command exited:\n${out}`);
            return fetch(`http://127.0.0.1:${port}/healthz`).then(
              (r) => r.status,
              () => 0,
            );
          },
          { timeout: 60_000, interval: 200 },
        )
        .toBe(200);
      const [check, ...checkArgs] = JSON.parse(healthcheck) as string[];
      expect(check).toBe("node");
      const health = spawnSync(process.execPath, checkArgs, { env: { ...environment }, timeout: 10_000 });
      expect(health.status, String(health.stderr)).toBe(0);
      // The log's first line names the version and commit the build holds (build/version.json).
      const built = JSON.parse(readFileSync(path.join(ROOT, "build/version.json"), "utf8")) as AppVersion;
      expect(JSON.parse(out.split("\n")[0]!)).toMatchObject({
        msg: `starting version ${versionLabel(built)}`,
        version: built.version,
        commit: built.commit,
      });
      const password = decodeURIComponent(new URL(readFileSync(secret, "utf8").trim()).password);
      if (password) expect(out).not.toContain(password);
    } finally {
      child.kill("SIGTERM");
    }
    expect(await exited, out).toBe(0);
    // With the server gone, the health check fails.
    const [, ...checkArgs] = JSON.parse(healthcheck) as string[];
    expect(spawnSync(process.execPath, checkArgs, { env: { ...environment }, timeout: 10_000 }).status).toBe(1);
  });
});
