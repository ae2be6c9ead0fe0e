/**
 * `npm run bench`: the speed goals, measured on this machine in one run (not part of `npm test`).
 *
 * Builds if needed, starts a scratch PostgreSQL and the built app on it, then measures with wrk:
 * - anonymous `/` against nginx (and a bare node:http server) sending the very same bytes,
 * - signed-in public pages against the anonymous figure,
 * - signed-in pages with real work and the back office, on an empty database and again after inserting
 *   BENCH_ORDERS orders (default 1,000,000) of BENCH_CUSTOMERS customers (default 20,000) with SQL.
 * Prints a table of requests/s, p50 and p97.5, and the ratios the goals are stated in. Figures on a shared machine
 * are noisy: compare ratios within one run, never figures across runs.
 *
 * Settings: BENCH_SECONDS (per measurement, default 8), BENCH_ORDERS, BENCH_CUSTOMERS.
 */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync, chmodSync, existsSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "../../server/db/embedded";
import { silentLogger } from "../../server/lib/logger";
import { freePort, ROOT } from "../../tests/support/server";
import { CookieJar } from "../../tests/support/session";
import { buildIsCurrent } from "../build-state.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);
const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20_000);
const ADMIN = { email: "bench-admin@example.com", password: "bench-admin-password-1" };
const CUSTOMER = { name: "Bench Customer", email: "bench-customer@example.com", password: "bench-customer-pass-1" };

const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");

interface Figure {
  name: string;
  rps: number;
  p50: number;
  p975: number;
  non2xx: number;
}

function need(binary: string, debianPackage: string) {
  if (spawnSync("sh", ["-c", `command -v ${binary}`]).status === 0) return;
  console.log(`installing ${debianPackage} from Debian`);
  const res = spawnSync(
    "sh",
    [
      "-c",
      `apt-get install -y -qq ${debianPackage} >/dev/null || (apt-get update -qq && apt-get install -y -qq ${debianPackage} >/dev/null)`,
    ],
    {
      stdio: "inherit",
    },
  );
  if (res.status !== 0) throw new Error(`${binary} is missing and ${debianPackage} could not be installed`);
}

const scratch = mkdtempSync(path.join(tmpdir(), "atelier-bench-"));
chmodSync(scratch, 0o755);
const LUA = path.join(scratch, "report.lua");
// wrk prints what the table needs: latency percentiles in microseconds, requests, and non-2xx/3xx answers.
writeFileSync(
  LUA,
  `local headers = {}
init = function(args) for i = 1, #args, 2 do headers[args[i]] = args[i + 1] end end
request = function() return wrk.format("GET", nil, headers) end
done = function(summary, latency, requests)
  io.write(string.format("BENCH %d %d %d %d %d\\n", summary.requests, summary.duration, latency:percentile(50), latency:percentile(97.5), summary.errors.status))
end`,
);

function wrk(
  name: string,
  url: string,
  options: { connections?: number; headers?: Record<string, string> } = {},
): Figure {
  const connections = options.connections ?? 50;
  const headerArgs = Object.entries(options.headers ?? {}).flat();
  const res = spawnSync("wrk", ["-t1", `-c${connections}`, `-d${SECONDS}s`, "-s", LUA, url, "--", ...headerArgs], {
    encoding: "utf8",
  });
  const line = res.stdout.split("\n").find((l) => l.startsWith("BENCH "));
  if (!line) throw new Error(`wrk failed for ${name}: ${res.stdout}${res.stderr}`);
  const [requests, durationUs, p50, p975, non2xx] = line.split(" ").slice(1).map(Number) as [
    number,
    number,
    number,
    number,
    number,
  ];
  const figure = { name, rps: requests / (durationUs / 1e6), p50: p50 / 1000, p975: p975 / 1000, non2xx };
  console.log(
    `  ${name}: ${figure.rps.toFixed(0)} req/s, p50 ${figure.p50.toFixed(1)} ms, p97.5 ${figure.p975.toFixed(1)} ms${non2xx ? `, ${non2xx} non-2xx` : ""}`,
  );
  return figure;
}

async function startApp(
  env: Record<string, string>,
): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let out = "";
  const child = spawn(process.execPath, [path.join(ROOT, "build/server/main.js")], {
    cwd: ROOT,
    env: { ...process.env, PORT: String(port), HOST: "127.0.0.1", PUBLIC_URL: url, LOG_LEVEL: "warn", ...env },
    stdio: ["ignore", "pipe", "pipe"],
  });
  child.stdout!.on("data", (d) => (out += d));
  child.stderr!.on("data", (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  const deadline = Date.now() + 120_000;
  for (;;) {
    if (child.exitCode !== null) throw new Error(`the app exited:\n${out}`);
    const ok = await fetch(`${url}/healthz`).then(
      (r) => r.ok,
      () => false,
    );
    if (ok) break;
    if (Date.now() > deadline) throw new Error(`the app did not start:\n${out}`);
    await new Promise((r) => setTimeout(r, 200));
  }
  return {
    url,
    child,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

async function signIn(url: string, account: { email: string; password: string; name?: string }, signUp = false) {
  const jar = new CookieJar();
  const headers = { "content-type": "application/json", origin: url };
  if (signUp) {
    const res = await fetch(`${url}/api/auth/sign-up/email`, {
      method: "POST",
      headers,
      body: JSON.stringify(account),
    });
    if (!res.ok) throw new Error(`sign-up failed: ${res.status} ${await res.text()}`);
  }
  const res = await fetch(`${url}/api/auth/sign-in/email`, {
    method: "POST",
    headers,
    body: JSON.stringify({ email: account.email, password: account.password }),
  });
  if (!res.ok) throw new Error(`sign-in failed for ${account.email}: ${res.status} ${await res.text()}`);
  jar.store(res);
  return jar.header();
}

/** A static server of the same bytes: nginx (as the issue measured it), and a bare node:http server. */
async function staticReferences(body: Buffer, contentType: string) {
  const root = path.join(scratch, "static");
  spawnSync("mkdir", ["-p", root]);
  writeFileSync(path.join(root, "index.html"), body);
  const nginxPort = await freePort();
  const conf = path.join(scratch, "nginx.conf");
  writeFileSync(
    conf,
    `worker_processes 1; daemon off; pid ${scratch}/nginx.pid; error_log ${scratch}/nginx-error.log;
events { worker_connections 1024; }
http { access_log off; server { listen 127.0.0.1:${nginxPort}; root ${root}; location / { default_type ${contentType.split(";")[0]}; charset utf-8; try_files /index.html =404; } } }`,
  );
  const nginx = spawn("nginx", ["-c", conf, "-p", scratch], { stdio: "ignore" });
  // In a child process: wrk runs synchronously here, so a server in this process could not answer.
  const nodePort = await freePort();
  const node = spawn(
    process.execPath,
    [
      "-e",
      `const body = require("fs").readFileSync(${JSON.stringify(path.join(root, "index.html"))});
       require("http").createServer((req, res) => { res.writeHead(200, { "content-type": ${JSON.stringify(contentType)}, "content-length": body.length }); res.end(body); }).listen(${nodePort}, "127.0.0.1");`,
    ],
    { stdio: "ignore" },
  );
  for (let i = 0; i < 50; i++) {
    if (
      await fetch(`http://127.0.0.1:${nginxPort}/`).then(
        (r) => r.ok,
        () => false,
      )
    )
      break;
    await new Promise((r) => setTimeout(r, 100));
  }
  return {
    nginx: `http://127.0.0.1:${nginxPort}/`,
    node: `http://127.0.0.1:${nodePort}/`,
    stop() {
      nginx.kill("SIGTERM");
      node.kill("SIGTERM");
    },
  };
}

async function insertOrders(connection: pg.PoolConfig, database: string) {
  const client = new pg.Client({ ...connection, database });
  await client.connect();
  const started = Date.now();
  await client.query(
    `insert into "user" (id, name, email, email_verified, created_at, updated_at)
     select 'bench-' || g, 'Customer ' || g, 'customer' || g || '@bench.example', true, now(), now()
     from generate_series(1, $1::int) g`,
    [CUSTOMERS],
  );
  // Orders spread over two years; about half paid, most of those delivered; a few cancelled.
  await client.query(
    `insert into orders (user_id, package_name, package_price, package_validity, customer_email, customer_name,
                         customer_address, customer_country, payment_status, order_status, order_date,
                         membership_valid, paid_at, created_at, updated_at)
     select 'bench-' || c, p.name, p.price, p.validity, 'customer' || c || '@bench.example', 'Customer ' || c,
            c || ' Bench Street', 'United Kingdom', s.payment, s.delivery, to_char(t, 'MM/DD/YYYY'),
            case when s.payment = 'Paid' then t + make_interval(days => p.validity) end,
            case when s.payment = 'Paid' then t end, t, t
     from generate_series(1, $1::int) g
     cross join lateral (select 1 + (g % $2::int) as c, now() - make_interval(secs => (g::float8 / $1::int) * 63072000) as t) x
     cross join lateral (select (array['Basic','Standard','Premium'])[1 + g % 3] as name,
                                (array[29, 59, 99])[1 + g % 3]::numeric as price, (array[30, 90, 365])[1 + g % 3] as validity) p
     cross join lateral (select case when g % 10 < 5 then 'Paid' when g % 10 = 9 then 'Cancelled' else 'UnPaid' end as payment,
                                case when g % 10 < 4 then 'Delivered' else 'Pending' end as delivery) s`,
    [ORDERS, CUSTOMERS],
  );
  await client.query("analyze");
  await client.end();
  console.log(
    `inserted ${thousands(ORDERS)} orders of ${thousands(CUSTOMERS)} customers in ${((Date.now() - started) / 1000).toFixed(1)} s`,
  );
}

function table(rows: Array<[string, Figure | undefined, string]>) {
  const lines = [
    "| measurement | req/s | p50 ms | p97.5 ms | goal |",
    "| --- | ---: | ---: | ---: | --- |",
    ...rows.map(([label, f, goal]) =>
      f
        ? `| ${label} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p975.toFixed(1)} | ${goal} |`
        : `| ${label} | - | - | - | ${goal} |`,
    ),
  ];
  return lines.join("\n");
}

const ratio = (a: Figure | undefined, b: Figure | undefined) => (a && b ? a.rps / b.rps : NaN);
const verdict = (value: number, goal: number) =>
  `${value.toFixed(2)} (goal ≥ ${goal}: ${value >= goal ? "met" : "NOT met"})`;

async function main() {
  need("wrk", "wrk");
  need("nginx", "nginx-light");
  if (!buildIsCurrent()) {
    console.log("building");
    if (spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" }).status !== 0)
      throw new Error("build failed");
  }

  const pgServer = await startEmbeddedPostgres(scratch, silentLogger);
  const admin = new pg.Client(pgServer.connection);
  await admin.connect();
  await admin.query("create database bench");
  await admin.end();
  const { host, port, user, password } = pgServer.connection as {
    host: string;
    port: number;
    user: string;
    password: string;
  };
  const databaseUrl = `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@localhost:${port}/bench?host=${encodeURIComponent(host)}`;

  const app = await startApp({
    DATABASE_URL: databaseUrl,
    DATA_DIR: path.join(scratch, "app"),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_PUBLIC_FORMS: "1000",
  });
  const figures: Record<string, Figure> = {};
  let references: Awaited<ReturnType<typeof staticReferences>> | undefined;
  try {
    const adminCookie = await signIn(app.url, ADMIN);
    const customerCookie = await signIn(app.url, CUSTOMER, true);
    const home = await fetch(`${app.url}/`);
    const homeBytes = Buffer.from(await home.arrayBuffer());
    references = await staticReferences(homeBytes, home.headers.get("content-type") ?? "text/html");
    console.log(`\nanonymous / is ${(homeBytes.length / 1024).toFixed(1)} KB`);

    const measure = (phase: string) => {
      console.log(`\n${phase}`);
      const as = (cookie: string) => ({ headers: { cookie } });
      const admin10 = { connections: 10, headers: { cookie: adminCookie } };
      const f = (name: string, url: string, options?: Parameters<typeof wrk>[2]) =>
        (figures[`${phase}:${name}`] = wrk(name, url, options));
      f("anonymous /", `${app.url}/`);
      f("signed-in /", `${app.url}/`, as(customerCookie));
      f("signed-in /pricing", `${app.url}/pricing`, as(customerCookie));
      f("/dashboard (customer, c10)", `${app.url}/dashboard`, { connections: 10, headers: { cookie: customerCookie } });
      f("/my-order (customer, c10)", `${app.url}/my-order`, { connections: 10, headers: { cookie: customerCookie } });
      f("/admin (c10)", `${app.url}/admin`, admin10);
      f("/total-orders (c10)", `${app.url}/total-orders`, admin10);
      f("/total-orders deep page (c10)", `${app.url}/total-orders?page=40000`, admin10);
      f("/total-orders Paid filter (c10)", `${app.url}/total-orders?paymentStatus=Paid`, admin10);
      f("GET /api/orders (admin, c10)", `${app.url}/api/orders`, admin10);
    };

    console.log("\nreferences (same bytes as anonymous /)");
    figures["nginx"] = wrk("nginx, static file", references.nginx);
    figures["node"] = wrk("bare node:http", references.node);
    measure("empty");
    await insertOrders(pgServer.connection, "bench");
    measure("1M");

    const g = (k: string) => figures[k];
    console.log("\n## Figures\n");
    console.log(
      table([
        ["nginx, same bytes", g("nginx"), ""],
        ["bare node:http, same bytes", g("node"), ""],
        ...(
          [
            "anonymous /",
            "signed-in /",
            "signed-in /pricing",
            "/dashboard (customer, c10)",
            "/my-order (customer, c10)",
            "/admin (c10)",
            "/total-orders (c10)",
            "/total-orders deep page (c10)",
            "/total-orders Paid filter (c10)",
            "GET /api/orders (admin, c10)",
          ] as const
        ).flatMap((name): Array<[string, Figure | undefined, string]> => [
          [`${name}, empty database`, g(`empty:${name}`), ""],
          [
            `${name}, ${thousands(ORDERS)} orders`,
            g(`1M:${name}`),
            name.includes("c10") && !name.includes("customer")
              ? "p97.5 ≤ 50 ms"
              : name.startsWith("/dashboard")
                ? "≥ 400 req/s"
                : "",
          ],
        ]),
      ]),
    );
    console.log("\n## Ratios\n");
    console.log(`- anonymous / ÷ nginx: ${verdict(ratio(g("1M:anonymous /"), g("nginx")), 0.8)}`);
    console.log(`- signed-in / ÷ anonymous /: ${verdict(ratio(g("1M:signed-in /"), g("1M:anonymous /")), 0.8)}`);
    for (const name of [
      "/admin (c10)",
      "/total-orders (c10)",
      "/total-orders deep page (c10)",
      "/total-orders Paid filter (c10)",
      "GET /api/orders (admin, c10)",
    ]) {
      console.log(`- ${name} with orders ÷ empty: ${verdict(ratio(g(`1M:${name}`), g(`empty:${name}`)), 0.8)}`);
    }
  } finally {
    references?.stop();
    await app.stop();
    await pgServer.stop();
    if (!process.env.BENCH_KEEP) rmSync(scratch, { recursive: true, force: true });
    else if (existsSync(scratch)) console.log(`kept ${scratch}`);
  }
}

main().catch((error: unknown) => {
  console.error(error);
  process.exit(1);
});
