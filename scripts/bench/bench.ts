/**
 * `npm run bench`: the speed goals, measured on this machine in one run (not part of `npm test`).
 *
 * Builds if needed, starts a scratch PostgreSQL and the built app on it, then measures with wrk:
 * - anonymous `/` against nginx (and a bare node:http server) sending the very same bytes,
 * - signed-in public pages against the anonymous figure,
 * - signed-in pages with real work and the back office (each filter of the orders desk, deep pages, the REST list),
 *   on a second app whose database holds a nearly empty shop (BENCH_FEW_ORDERS, default 1,000: every list shows full
 *   pages, so the ratio compares the cost of many orders, not of drawing ten rows against drawing none) and on the
 *   first after inserting BENCH_ORDERS orders (default 1,000,000) of BENCH_CUSTOMERS customers (default 20,000) with
 *   SQL, alternately (few, many, many, few) so that both figures of a ratio are taken under the same load.
 * Prints a table of requests/s, p50 and p97.5, and the ratios the goals are stated in. Figures on a shared machine
 * are noisy: compare ratios within one run, never figures across runs.
 *
 * Settings: BENCH_SECONDS (per measurement, default 8), BENCH_ORDERS, BENCH_FEW_ORDERS, BENCH_CUSTOMERS, and BENCH_ONLY:
 * a regular expression (case-insensitive) of the signed-in rows to measure, alone (no references, no public pages),
 * while working on a few of them, e.g. BENCH_ONLY='api/orders' or BENCH_ONLY='page 50,000|page 40,000'.
 */
import { spawn } from "node:child_process";
import { existsSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { availableParallelism } from "node:os";
import path from "node:path";
import pg from "pg";
import { freePort } from "#tests/support/server.ts";
import {
  insertBenchOrders,
  makeScratch,
  nginxServing,
  prepare,
  signIn,
  startApp,
  wrk as measureWith,
  type Figure,
} from "./support";

const ORDERS = Number(process.env.BENCH_ORDERS ?? 1_000_000);
const FEW_ORDERS = Number(process.env.BENCH_FEW_ORDERS ?? 1_000);
const CUSTOMERS = Number(process.env.BENCH_CUSTOMERS ?? 20_000);
const thousands = (n: number) => String(n).replace(/\B(?=(\d{3})+(?!\d))/g, ",");
const ONLY = process.env.BENCH_ONLY ? new RegExp(process.env.BENCH_ONLY, "i") : undefined;
/** The app's processes as `npm start` runs them here (WEB_CONCURRENCY, else one per core, at most 4): nginx gets as many. */
const PROCESSES = Number(process.env.WEB_CONCURRENCY) || Math.min(availableParallelism(), 4);
const ADMIN = { email: "bench-admin@example.com", password: "bench-admin-password-1" };
/** The signed-in customer; their name is also the one a search of the desk looks for (found in both shops). */
const CUSTOMER = { name: "Nora Lindqvist", email: "nora.lindqvist@example.com", password: "bench-customer-pass-1" };

/**
 * Signed-in pages with real work and the orders desk, at 10 connections, measured on the nearly empty shop and again
 * with the orders: [name, path, who, options]. The desk's filters: each has an index its plan uses (decision 026).
 * Each row's ratio is its figure with the orders ÷ with the few, unless `against` names the row it is compared with on
 * the same shop (a deep page against the first page of the same list: the few orders have no such page). `few` is
 * the path measured on the small shop instead, when the row compares a page of the million with another page of the
 * small shop (the REST list's last page against the small shop's middle one). `floor` marks the lightest page of the
 * back office (a form, no list): what any signed-in page costs here, orders or not.
 */
type WorkRow = readonly [string, string, "admin" | "customer", { against?: string; few?: string; floor?: boolean }?];
/** The REST list's page size, its last page on the million (50,000), and the small shop's middle page (25). */
const API_PER_PAGE = 20;
const API_DEEP_PAGE = Math.max(1, Math.floor(ORDERS / API_PER_PAGE));
const API_MIDDLE_PAGE = Math.max(1, Math.ceil(FEW_ORDERS / API_PER_PAGE / 2));
/** The reports' two years: the span of the shops' orders (a `to` after the site's today ends today). */
const REPORT_TO = new Date().toISOString().slice(0, 10);
const REPORT_FROM = new Date(Date.now() - 2 * 365 * 86_400_000).toISOString().slice(0, 10);
const WORK: readonly WorkRow[] = [
  ["/dashboard (customer, c10)", "/dashboard", "customer"],
  ["/my-order (customer, c10)", "/my-order", "customer"],
  ["/add-user, the lightest back-office page (c10)", "/add-user", "admin", { floor: true }],
  ["/admin (c10)", "/admin", "admin"],
  ["/total-orders (c10)", "/total-orders", "admin"],
  ["/total-orders page 40,000 (c10)", "/total-orders?page=40000", "admin"],
  ["/total-orders payment Paid (c10)", "/total-orders?payment=Paid", "admin"],
  ["/total-orders status Delivered, page 20,000 (c10)", "/total-orders?status=Delivered&page=20000", "admin"],
  ["/total-orders to deliver (c10)", "/total-orders?view=to-deliver", "admin"],
  [
    "/total-orders Cancelled and Pending, page 5,000 (c10)",
    "/total-orders?payment=Cancelled&status=Pending&page=5000",
    "admin",
  ],
  ["/total-orders one month (c10)", "/total-orders?from=2026-01-01&to=2026-01-31", "admin"],
  [
    "/total-orders one month, page 300 (c10)",
    "/total-orders?from=2026-01-01&to=2026-01-31&page=300",
    "admin",
    { against: "/total-orders one month (c10)" },
  ],
  ["/total-orders search a customer's name (c10)", "/total-orders?q=lindqvist", "admin"],
  // The customers list (issue 26): its filters and sorts read customer_totals, kept by the orders' triggers.
  ["/customers (c10)", "/customers", "admin"],
  ["/customers active, by total spent (c10)", "/customers?state=active&sort=spent", "admin"],
  // The reports (issue 26): every figure read from the day and month tallies of migration 0022, never from orders.
  ["/reports, the last 12 months (c10)", "/reports", "admin"],
  ["/reports this month, day by day (c10)", "/reports?period=this-month", "admin"],
  ["/reports two years, by month (c10)", `/reports?from=${REPORT_FROM}&to=${REPORT_TO}`, "admin"],
  ["GET /api/reports/churn, two years (admin, c10)", `/api/reports/churn?from=${REPORT_FROM}&to=${REPORT_TO}`, "admin"],
  ["/reports/revenue.csv, two years (c10)", `/reports/revenue.csv?from=${REPORT_FROM}&to=${REPORT_TO}`, "admin"],
  // The tax report (issue 35): read from the tax_days tallies of migration 0038 (invoices and credit notes by day).
  ["/reports/tax, this quarter (c10)", "/reports/tax", "admin"],
  ["GET /api/reports/tax, two years (admin, c10)", `/api/reports/tax?from=${REPORT_FROM}&to=${REPORT_TO}`, "admin"],
  ["/reports/tax.csv, two years (c10)", `/reports/tax.csv?from=${REPORT_FROM}&to=${REPORT_TO}`, "admin"],
  ["GET /api/orders (admin, c10)", "/api/orders", "admin"],
  ["GET /api/orders?page=20,000&limit=20 (admin, c10)", "/api/orders?limit=20&page=20000", "admin"],
  [
    `GET /api/orders?page=${thousands(API_DEEP_PAGE)}, the last (admin, c10)`,
    `/api/orders?page=${API_DEEP_PAGE}`,
    "admin",
    { few: `/api/orders?page=${API_MIDDLE_PAGE}` },
  ],
];
/** The rows measured: all, or those BENCH_ONLY selects and the rows their ratios are taken against. */
const WORK_RUN = ONLY
  ? WORK.filter(
      ([name]) => ONLY.test(name) || WORK.some(([other, , , options]) => ONLY.test(other) && options?.against === name),
    )
  : WORK;
if (WORK_RUN.length === 0) throw new Error(`BENCH_ONLY=${process.env.BENCH_ONLY} matches no row`);

const { dir: scratch, lua: LUA } = makeScratch("atelier-bench-");

const wrk = (name: string, url: string, options?: { connections?: number; headers?: Record<string, string> }) =>
  measureWith(LUA, name, url, options);

/** The same report, each request with another random query string (utm_source and an unknown parameter). */
const RANDOM_QUERY_LUA = path.join(scratch, "random-query.lua");
const REPORT = readFileSync(LUA, "utf8");
writeFileSync(
  RANDOM_QUERY_LUA,
  REPORT.replace(
    'request = function() return wrk.format("GET", nil, headers) end',
    'request = function() return wrk.format("GET", "/?utm_source=bench&fbclid=" .. math.random(1, 1e9) .. "&x" .. math.random(1, 1e9) .. "=1", headers) end',
  ),
);

if (readFileSync(RANDOM_QUERY_LUA, "utf8") === REPORT) throw new Error("the random query script did not apply");

/**
 * A signed-in visitor's cookies as a browser holds them after its first page: the session, and the role cookie that
 * proves the page variant without the database (decision 025; valid 5 minutes, so taken again before each phase).
 */
async function withRoleCookie(url: string, cookie: string) {
  const res = await fetch(`${url}/`, { headers: { cookie } });
  await res.arrayBuffer();
  const role = res.headers
    .getSetCookie()
    .find((c) => c.includes("atelier.role="))
    ?.split(";")[0];
  if (!role) throw new Error("the first page view set no role cookie");
  return `${cookie}; ${role}`;
}

/** A static server of the same bytes: nginx (as the issue measured it), and a bare node:http server. */
async function staticReferences(body: Buffer, contentType: string) {
  const nginx = await nginxServing(scratch, body, {
    file: "index.html",
    contentType: contentType.split(";")[0]!,
    charset: true,
    workers: PROCESSES,
  });
  // In a child process: wrk runs synchronously here, so a server in this process could not answer.
  const nodePort = await freePort();
  const node = spawn(
    process.execPath,
    [
      "-e",
      `const body = require("fs").readFileSync(${JSON.stringify(path.join(nginx.root, "index.html"))});
       require("http").createServer((req, res) => { res.writeHead(200, { "content-type": ${JSON.stringify(contentType)}, "content-length": body.length }); res.end(body); }).listen(${nodePort}, "127.0.0.1");`,
    ],
    { stdio: "ignore" },
  );
  return {
    nginx: nginx.url,
    node: `http://127.0.0.1:${nodePort}/`,
    stop() {
      nginx.stop();
      node.kill("SIGTERM");
    },
  };
}

async function insertOrders(connection: pg.PoolConfig, database: string, ORDERS: number) {
  const client = new pg.Client({ ...connection, database });
  await client.connect();
  const started = Date.now();
  await insertBenchOrders(client, { orders: ORDERS, customers: CUSTOMERS });
  // The signed-in bench customer owns 50 of them, as many with few orders as with many (their dashboard and My Orders
  // list them, and a search of the desk for their name finds them in both shops).
  await client.query(
    `update orders set user_id = u.id, customer_email = u.email, customer_name = u.name from "user" u
     where u.email = $1 and orders.id in (select id from orders order by created_at desc limit 50)`,
    [CUSTOMER.email],
  );
  // A database in service is vacuumed: without this, autovacuum would work through the million new rows (and setting
  // their hint bits would write them again) during the measurements that follow.
  await client.query("vacuum (analyze)");
  await client.query("checkpoint");
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
        ? `| ${label} | ${f.rps.toFixed(0)} | ${f.p50.toFixed(1)} | ${f.p975.toFixed(1)} | ${goal}${f.non2xx ? ` (${f.non2xx} answers not 2xx/3xx!)` : ""} |`
        : `| ${label} | - | - | - | ${goal} |`,
    ),
  ];
  return lines.join("\n");
}

const mean = (a: Figure, b: Figure): Figure => ({
  name: a.name,
  rps: (a.rps + b.rps) / 2,
  p50: (a.p50 + b.p50) / 2,
  p975: (a.p975 + b.p975) / 2,
  non2xx: a.non2xx + b.non2xx,
});

const ratio = (a: Figure | undefined, b: Figure | undefined) => (a && b ? a.rps / b.rps : NaN);
const verdict = (value: number, goal: number) =>
  `${value.toFixed(2)} (goal ≥ ${goal}: ${value >= goal ? "met" : "NOT met"})`;

type App = Awaited<ReturnType<typeof startApp>>;
type Who = WorkRow[2];

/** The two apps, the nearly empty shop's and the one that gets the orders, and who is signed in on each. */
interface Bench {
  app: App;
  emptyApp: App;
  cookies: Record<Who, string>;
  emptyCookies: Record<Who, string>;
  figures: Record<string, Figure>;
}

const appEnv = (url: string, dir: string) => ({
  DATABASE_URL: url,
  DATA_DIR: path.join(scratch, dir),
  ADMIN_EMAIL: ADMIN.email,
  ADMIN_PASSWORD: ADMIN.password,
  RATE_LIMIT_PUBLIC_FORMS: "1000",
  WEB_CONCURRENCY: String(PROCESSES),
  // Staff sign in with a password alone here: with a second factor due, every back-office row measured the redirect
  // to /account/security (and every admin REST row a 403) instead of the page.
  ADMIN_2FA: "optional",
});

async function startApps(connection: pg.ClientConfig, databaseUrl: string) {
  const app = await startApp(appEnv(databaseUrl, "app"));
  // A second app on a database that stays empty: each signed-in row is measured on both back to back, so that the
  // ratio compares figures taken under the same load of this shared machine.
  const setup = new pg.Client(connection);
  await setup.connect();
  await setup.query("create database bench_empty");
  await setup.end();
  const emptyApp = await startApp(appEnv(databaseUrl.replace("/bench?", "/bench_empty?"), "app-empty"));
  return { app, emptyApp };
}

async function signInBoth(app: App, emptyApp: App) {
  const cookies = { admin: await signIn(app.url, ADMIN), customer: await signIn(app.url, CUSTOMER, true) };
  const emptyCookies = {
    admin: await signIn(emptyApp.url, ADMIN),
    customer: await signIn(emptyApp.url, CUSTOMER, true),
  };
  return { cookies, emptyCookies };
}

/** The static servers of anonymous /'s very bytes. */
async function homeReferences(appUrl: string) {
  const home = await fetch(`${appUrl}/`);
  const homeBytes = Buffer.from(await home.arrayBuffer());
  const references = await staticReferences(homeBytes, home.headers.get("content-type") ?? "text/html");
  console.log(
    `\nanonymous / is ${(homeBytes.length / 1024).toFixed(1)} KB; the app runs ${PROCESSES} processes, nginx as many workers`,
  );
  return references;
}

/** The public pages, anonymous and signed in, and /api/me, on the app that gets the orders. */
async function measure({ app, cookies, figures }: Bench, phase: string) {
  console.log(`\n${phase}`);
  const as = (cookie: string) => ({ headers: { cookie } });
  const f = (name: string, url: string, options?: Parameters<typeof wrk>[2]) =>
    (figures[`${phase}:${name}`] = wrk(name, url, options));
  const customerPages = await withRoleCookie(app.url, cookies.customer);
  const adminPages = await withRoleCookie(app.url, cookies.admin);
  f("anonymous /", `${app.url}/`);
  f("signed-in /", `${app.url}/`, as(customerPages));
  f("signed-in / (admin)", `${app.url}/`, as(adminPages));
  f("anonymous /pricing", `${app.url}/pricing`);
  f("signed-in /pricing", `${app.url}/pricing`, as(customerPages));
  figures[`${phase}:anonymous /, random query strings`] = measureWith(
    RANDOM_QUERY_LUA,
    "anonymous /, random query strings",
    `${app.url}/`,
  );
  // The other way (a): everyone gets the visitor's copy, and each view also asks who is signed in.
  f("signed-in / without its role cookie (session looked up)", `${app.url}/`, as(cookies.customer));
  f("GET /api/me (customer)", `${app.url}/api/me`, as(cookies.customer));
}

/** Where a row is measured on one shop, and as whom. */
function target(bench: Bench, [, path, who, options]: WorkRow, phase: "empty" | "1M") {
  return {
    url: `${phase === "empty" ? bench.emptyApp.url : bench.app.url}${phase === "empty" ? (options?.few ?? path) : path}`,
    cookie:
      phase === "empty" ? bench.emptyCookies[who] : who === "admin" ? bench.cookies.admin : bench.cookies.customer,
  };
}

/**
 * The signed-in rows, each on the nearly empty shop and on the orders in the order few, many, many, few
 * (a drift of the machine's load then weighs on both alike); each figure is the mean of its two.
 */
async function work(bench: Bench) {
  console.log(`\nsigned-in pages, ${thousands(FEW_ORDERS)} and ${thousands(ORDERS)} orders, alternately`);
  for (const row of WORK_RUN) {
    const [name] = row;
    const on = (phase: "empty" | "1M", warmUp?: { seconds: number; quiet: boolean }) => {
      const { url, cookie } = target(bench, row, phase);
      return wrk(`${name}, ${phase}`, url, { ...warmUp, connections: 10, headers: { cookie } });
    };
    // A row measures its page: a redirect (to sign in, to a second factor) or a refusal would be measured instead.
    for (const phase of ["empty", "1M"] as const) {
      const { url, cookie } = target(bench, row, phase);
      const res = await fetch(url, { headers: { cookie }, redirect: "manual" });
      await res.arrayBuffer();
      if (res.status !== 200) throw new Error(`${name} (${phase}) answers ${res.status}, not 200`);
    }
    // Warm up both first (the first requests of a page compile code and fill caches).
    on("empty", { seconds: 2, quiet: true });
    on("1M", { seconds: 2, quiet: true });
    const [a, b, c, d] = [on("empty"), on("1M"), on("1M"), on("empty")];
    bench.figures[`empty:${name}`] = mean(a, d);
    bench.figures[`1M:${name}`] = mean(b, c);
  }
}

/** A row's goal with the orders, as the table states it. */
function goalOf(name: string) {
  return WORK.find(([n]) => n === name)?.[3]?.floor
    ? "the floor of a signed-in page"
    : WORK.find(([n]) => n === name)?.[2] === "admin"
      ? "p97.5 ≤ 50 ms"
      : name.startsWith("/dashboard")
        ? "≥ 400 req/s"
        : "";
}

function printFigures(figures: Record<string, Figure>) {
  const g = (k: string) => figures[k];
  const few = (name: string) => WORK.find(([n]) => n === name)?.[3]?.few;
  console.log("\n## Figures\n");
  console.log(
    table([
      ...(ONLY
        ? []
        : ([
            [`nginx (${PROCESSES} workers), same bytes`, g("nginx"), ""],
            ["bare node:http (one process), same bytes", g("node"), ""],
          ] as Array<[string, Figure | undefined, string]>)),
      ...[
        ...(ONLY
          ? []
          : [
              "anonymous /",
              "signed-in /",
              "signed-in / (admin)",
              "anonymous /pricing",
              "signed-in /pricing",
              "anonymous /, random query strings",
              "signed-in / without its role cookie (session looked up)",
              "GET /api/me (customer)",
            ]),
        ...WORK_RUN.map(([name]) => name),
      ].flatMap((name): Array<[string, Figure | undefined, string]> => [
        [
          `${name}, ${WORK.some(([n]) => n === name) ? `${thousands(FEW_ORDERS)} orders${few(name) ? `: ${few(name)}, their middle page` : ""}` : "empty database"}`,
          g(`empty:${name}`),
          "",
        ],
        [`${name}, ${thousands(ORDERS)} orders`, g(`1M:${name}`), goalOf(name)],
      ]),
    ]),
  );
}

/** The public pages' ratios, and the ways of decision 025 not chosen. */
function printPublicRatios(g: (k: string) => Figure | undefined) {
  console.log(`- anonymous / ÷ nginx: ${verdict(ratio(g("1M:anonymous /"), g("nginx")), 0.8)}`);
  console.log(`- signed-in / ÷ anonymous /: ${verdict(ratio(g("1M:signed-in /"), g("1M:anonymous /")), 0.8)}`);
  console.log(
    `- signed-in / (admin) ÷ anonymous /: ${verdict(ratio(g("1M:signed-in / (admin)"), g("1M:anonymous /")), 0.8)}`,
  );
  console.log(
    `- signed-in /pricing ÷ anonymous /pricing: ${verdict(ratio(g("1M:signed-in /pricing"), g("1M:anonymous /pricing")), 0.8)}`,
  );
  console.log(
    `- anonymous / with random query strings ÷ without: ${verdict(ratio(g("1M:anonymous /, random query strings"), g("1M:anonymous /")), 0.8)}`,
  );
  // Way (a): one page view = the shared copy (as fast as anonymous) plus a per-person call (as costly as /api/me).
  const anonymous = g("1M:anonymous /")?.rps ?? NaN;
  const me = g("1M:GET /api/me (customer)")?.rps ?? NaN;
  const perView = 1 / (1 / anonymous + 1 / me);
  console.log(
    `- for comparison, the ways not chosen (decision 025): (a) shared copy + per-person call, views/s ÷ anonymous /: ${(perView / anonymous).toFixed(2)} (${perView.toFixed(0)} views/s)`,
  );
  console.log(
    `- for comparison: (b) without the role cookie (a session lookup per view) ÷ anonymous /: ${ratio(g("1M:signed-in / without its role cookie (session looked up)"), g("1M:anonymous /")).toFixed(2)}`,
  );
}

function printRatios(figures: Record<string, Figure>) {
  const g = (k: string) => figures[k];
  console.log("\n## Ratios\n");
  if (!ONLY) printPublicRatios(g);
  for (const [name, , who, options] of WORK_RUN) {
    if (who !== "admin") continue;
    const f = g(`1M:${name}`);
    const p975 = `p97.5 ${f ? f.p975.toFixed(1) : "-"} ms`;
    if (options?.floor) {
      console.log(`- ${name}, the floor of a signed-in page on this machine: ${p975}`);
      continue;
    }
    const against = options?.against
      ? `÷ ${options.against}, both with ${thousands(ORDERS)} orders: ${verdict(ratio(f, g(`1M:${options.against}`)), 0.8)}`
      : `with ${thousands(ORDERS)} ÷ ${thousands(FEW_ORDERS)} orders${options?.few ? ` (on the few: ${options.few}, their middle page)` : ""}: ${verdict(ratio(f, g(`empty:${name}`)), 0.8)}`;
    console.log(`- ${name} ${against}; ${p975} (goal ≤ 50: ${f && f.p975 <= 50 ? "met" : "NOT met"})`);
  }
  const dashboard = g("1M:/dashboard (customer, c10)");
  if (dashboard)
    console.log(
      `- /dashboard with orders: ${dashboard.rps.toFixed(0)} req/s (goal ≥ 400: ${dashboard.rps >= 400 ? "met" : "NOT met"})`,
    );
}

async function main() {
  const { pgServer, databaseUrl } = await prepare(scratch);
  const { app, emptyApp } = await startApps(pgServer.connection, databaseUrl);
  const figures: Record<string, Figure> = {};
  let references: Awaited<ReturnType<typeof staticReferences>> | undefined;
  try {
    const bench: Bench = { app, emptyApp, ...(await signInBoth(app, emptyApp)), figures };
    references = await homeReferences(app.url);
    if (!ONLY) {
      console.log("\nreferences (same bytes as anonymous /)");
      figures["nginx"] = wrk("nginx, static file", references.nginx);
      figures["node"] = wrk("bare node:http", references.node);
      await measure(bench, "empty");
    }
    await insertOrders(pgServer.connection, "bench", ORDERS);
    await insertOrders(pgServer.connection, "bench_empty", FEW_ORDERS);
    if (!ONLY) await measure(bench, "1M");
    await work(bench);
    printFigures(figures);
    printRatios(figures);
  } finally {
    references?.stop();
    await emptyApp.stop();
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
