/** What the benches share: tools, a scratch directory, wrk, the built app, nginx, the shops' orders. */
import { spawn, spawnSync, type ChildProcess } from "node:child_process";
import { chmodSync, mkdirSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import path from "node:path";
import pg from "pg";
import { startEmbeddedPostgres } from "#server/db/embedded.ts";
import { silentLogger } from "#server/lib/logger.ts";
import { freePort, ROOT } from "#tests/support/server.ts";
import { CookieJar } from "#tests/support/session.ts";
import { buildIsCurrent } from "../build-state.mjs";

const SECONDS = Number(process.env.BENCH_SECONDS ?? 8);

export interface Figure {
  name: string;
  rps: number;
  p50: number;
  p975: number;
  non2xx: number;
}

export function need(binary: string, debianPackage: string) {
  if (spawnSync("sh", ["-c", `command -v ${binary}`]).status === 0) return;
  console.log(`installing ${debianPackage} from Debian`);
  const res = spawnSync(
    "sh",
    [
      "-c",
      `apt-get install -y -qq ${debianPackage} >/dev/null || (apt-get update -qq && apt-get install -y -qq ${debianPackage} >/dev/null)`,
    ],
    { stdio: "inherit" },
  );
  if (res.status !== 0) throw new Error(`${binary} is missing and ${debianPackage} could not be installed`);
}

/** A scratch directory readable by nginx, with the wrk script that prints what the tables need. */
export function makeScratch(prefix: string): { dir: string; lua: string } {
  const dir = mkdtempSync(path.join(tmpdir(), prefix));
  chmodSync(dir, 0o755);
  const lua = path.join(dir, "report.lua");
  // wrk prints latency percentiles in microseconds, requests, and non-2xx/3xx answers; arguments are request headers.
  writeFileSync(
    lua,
    `local headers = {}
init = function(args) for i = 1, #args, 2 do headers[args[i]] = args[i + 1] end end
request = function() return wrk.format("GET", nil, headers) end
done = function(summary, latency, requests)
  io.write(string.format("BENCH %d %d %d %d %d\\n", summary.requests, summary.duration, latency:percentile(50), latency:percentile(97.5), summary.errors.status))
end`,
  );
  return { dir, lua };
}

/** Measures `url` for BENCH_SECONDS with wrk and the script of `makeScratch`; prints and returns the figure. */
export function wrk(
  lua: string,
  name: string,
  url: string,
  options: {
    connections?: number;
    headers?: Record<string, string>;
    digits?: number;
    seconds?: number;
    quiet?: boolean;
  } = {},
): Figure {
  const connections = options.connections ?? 50;
  const digits = options.digits ?? 1;
  const headerArgs = Object.entries(options.headers ?? {}).flat();
  const res = spawnSync(
    "wrk",
    ["-t1", `-c${connections}`, `-d${options.seconds ?? SECONDS}s`, "-s", lua, url, "--", ...headerArgs],
    {
      encoding: "utf8",
    },
  );
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
  if (!options.quiet)
    console.log(
      `  ${name}: ${figure.rps.toFixed(0)} req/s, p50 ${figure.p50.toFixed(digits)} ms, p97.5 ${figure.p975.toFixed(digits)} ms${non2xx ? `, ${non2xx} non-2xx` : ""}`,
    );
  return figure;
}

/**
 * Waits until `url` answers 2xx. `check`, if given, is called before each try: it may throw (say, when the server
 * exited) and returns what to add to the error when `url` never answers.
 */
export async function waitFor(url: string, what: string, seconds = 120, check?: () => string) {
  for (const deadline = Date.now() + seconds * 1000; ; await new Promise((r) => setTimeout(r, 200))) {
    const details = check?.();
    if (
      await fetch(url).then(
        (r) => r.ok,
        () => false,
      )
    )
      return;
    if (Date.now() > deadline) throw new Error(`${what} did not start${details === undefined ? "" : `:\n${details}`}`);
  }
}

/** Needs wrk and nginx, builds if needed, and starts a scratch PostgreSQL with an empty database `bench`. */
export async function prepare(scratch: string) {
  need("wrk", "wrk");
  need("nginx", "nginx-light");
  if (!buildIsCurrent()) {
    console.log("building");
    if (spawnSync("npm", ["run", "build", "--silent"], { cwd: ROOT, stdio: "inherit" }).status !== 0)
      throw new Error("build failed");
  }
  const pgServer = await startEmbeddedPostgres(scratch, silentLogger);
  const client = new pg.Client(pgServer.connection);
  await client.connect();
  await client.query("create database bench");
  await client.end();
  const { host, port, user, password } = pgServer.connection as {
    host: string;
    port: number;
    user: string;
    password: string;
  };
  const databaseUrl = `postgresql://${encodeURIComponent(user)}:${encodeURIComponent(password)}@localhost:${port}/bench?host=${encodeURIComponent(host)}`;
  return { pgServer, databaseUrl };
}

/**
 * Starts the built app with `env`; its output is shown as it comes (`inherit`) or only if it fails to start.
 */
export async function startApp(
  env: Record<string, string>,
  output: "inherit" | "on-failure" = "on-failure",
): Promise<{ url: string; child: ChildProcess; stop(): Promise<void> }> {
  const port = await freePort();
  const url = `http://127.0.0.1:${port}`;
  let out = "";
  const child = spawn(process.execPath, [path.join(ROOT, "build/server/main.js")], {
    cwd: ROOT,
    // NODE_ENV as `npm start` sets it: unset, React renders with its development build.
    env: {
      ...process.env,
      NODE_ENV: "production",
      PORT: String(port),
      HOST: "127.0.0.1",
      PUBLIC_URL: url,
      LOG_LEVEL: "warn",
      ...env,
    },
    stdio: output === "inherit" ? ["ignore", "inherit", "inherit"] : ["ignore", "pipe", "pipe"],
  });
  child.stdout?.on("data", (d) => (out += d));
  child.stderr?.on("data", (d) => (out += d));
  const exited = new Promise<void>((resolve) => child.on("exit", () => resolve()));
  await waitFor(
    `${url}/healthz`,
    "the app",
    120,
    output === "inherit"
      ? undefined
      : () => {
          if (child.exitCode !== null) throw new Error(`the app exited:\n${out}`);
          return out;
        },
  );
  return {
    url,
    child,
    async stop() {
      child.kill("SIGTERM");
      await exited;
    },
  };
}

/** Signs `account` in (after signing it up if `signUp`) and returns its cookie header. */
export async function signIn(url: string, account: { email: string; password: string; name?: string }, signUp = false) {
  const jar = new CookieJar();
  const headers = { "content-type": "application/json", origin: url };
  if (signUp) {
    const res = await fetch(`${url}/api/auth/sign-up/email`, {
      method: "POST",
      headers,
      body: JSON.stringify({ ...account, acceptTerms: true }),
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

/** nginx serving `body` from `<scratch>/static/<file>` for every path, as `contentType`. */
export async function nginxServing(
  scratch: string,
  body: Buffer,
  {
    file,
    contentType,
    charset = false,
    workers = 1,
  }: { file: string; contentType: string; charset?: boolean; workers?: number },
) {
  const root = path.join(scratch, "static");
  mkdirSync(root, { recursive: true });
  writeFileSync(path.join(root, file), body);
  const port = await freePort();
  const conf = path.join(scratch, "nginx.conf");
  writeFileSync(
    conf,
    `worker_processes ${workers}; daemon off; pid ${scratch}/nginx.pid; error_log ${scratch}/nginx-error.log;
events { worker_connections 1024; }
http { access_log off; server { listen 127.0.0.1:${port}; root ${root}; location / { default_type ${contentType};${charset ? " charset utf-8;" : ""} try_files /${file} =404; } } }`,
  );
  const nginx = spawn("nginx", ["-c", conf, "-p", scratch], { stdio: "ignore" });
  await waitFor(`http://127.0.0.1:${port}/`, "nginx", 10);
  return { url: `http://127.0.0.1:${port}/`, root, stop: () => nginx.kill("SIGTERM") };
}

/**
 * The bench shops' data, one definition for every bench: `customers` accounts and `orders` orders over two years
 * before now (about half paid, most of those delivered and given their membership window; a few cancelled), numbered
 * BN-0000001…, the paid ones invoiced (BI-0000001…) with VAT of five kinds (UK, OSS France and Germany, reverse charge,
 * outside the scope) for the tax report; `quotedAddresses` puts a comma and quotes in each address (what a CSV export must quote).
 */
export async function insertBenchOrders(
  client: pg.Client,
  { orders, customers, quotedAddresses = false }: { orders: number; customers: number; quotedAddresses?: boolean },
) {
  await client.query(
    `insert into "user" (id, name, email, email_verified, created_at, updated_at)
     select 'bench-' || g, 'Customer ' || g, 'customer' || g || '@bench.example', true, now(), now()
     from generate_series(1, $1::int) g`,
    [customers],
  );
  await client.query(
    `insert into orders (number, user_id, package_name, package_price, package_validity, customer_email, customer_name,
                         customer_address, customer_country, payment_status, order_status, order_date,
                         membership_starts, membership_valid, paid_at, delivered_at, created_at, updated_at,
                         invoice_number, invoiced_at, tax_cents, tax_rate, tax_country, tax_treatment,
                         customer_country_code)
     select 'BN-' || lpad(g::text, 7, '0'), 'bench-' || c, p.name, p.price, p.validity, 'customer' || c || '@bench.example',
            'Customer ' || c, c || ' Bench Street' || case when $3::boolean then ', Flat "' || (g % 9) || '"' else '' end,
            'United Kingdom', s.payment, s.delivery, to_char(t, 'MM/DD/YYYY'),
            case when s.payment = 'Paid' and s.delivery = 'Delivered' then t end,
            case when s.payment = 'Paid' and s.delivery = 'Delivered' then t + make_interval(days => p.validity) end,
            case when s.payment = 'Paid' then t end, case when s.delivery = 'Delivered' then t end, t, t,
            case when s.payment = 'Paid' then 'BI-' || lpad(g::text, 7, '0') end, case when s.payment = 'Paid' then t end,
            case when v.rate > 0 then round(p.price * 100 * v.rate / (10000 + v.rate)) else 0 end, v.rate, v.country,
            v.treatment, v.buyer
     from generate_series(1, $1::int) g
     cross join lateral (select 1 + (g % $2::int) as c, now() - make_interval(secs => (g::float8 / $1::int) * 63072000) as t) x
     cross join lateral (select (array['Basic','Standard','Premium'])[1 + g % 3] as name,
                                (array[29, 59, 99])[1 + g % 3]::numeric as price, (array[30, 90, 365])[1 + g % 3] as validity) p
     cross join lateral (select case when g % 10 < 5 then 'Paid' when g % 10 = 9 then 'Cancelled' else 'UnPaid' end as payment,
                                case when g % 10 < 4 then 'Delivered' else 'Pending' end as delivery) s
     cross join lateral (select (array['domestic','oss','oss','outside-scope','reverse-charge'])[1 + g % 5] as treatment,
                                (array[2000, 2000, 1900, 0, 0])[1 + g % 5] as rate,
                                (array['GB', 'FR', 'DE', null, null])[1 + g % 5] as country,
                                (array['GB', 'FR', 'DE', 'US', 'IT'])[1 + g % 5] as buyer) v`,
    [orders, customers, quotedAddresses],
  );
}
