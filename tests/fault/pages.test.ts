import http from "node:http";
import { inject } from "vitest";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import routes from "#app/routes.ts";
import { sections } from "#domain/registry.ts";
import { createTestDatabase } from "../support/db";
import { databaseUrl, startBuiltServer, type RunningServer } from "../support/server";
import { rssMb, signIn, signUp } from "./support";

/**
 * Issue 12, part 3: the outside probes against the built server. The route × role matrix over every page (generated
 * from app/routes.ts), hostile bodies to every page form, script in every text field, the simulator's owner check,
 * and the memory of the app under 20 concurrent 10 MB posts (D1).
 */
const ADMIN = { email: "probe-admin@example.org", password: "probe-admin-1" };
let server: RunningServer;
let db: Awaited<ReturnType<typeof createTestDatabase>>;
const jars: Record<"visitor" | "customer" | "other" | "admin", string> = {
  visitor: "",
  customer: "",
  other: "",
  admin: "",
};
const ids = { order: "", package: "", item: "", message: "", user: "", paypal: "", content: "" };

beforeAll(async () => {
  db = await createTestDatabase();
  const { admin } = inject("testDb");
  server = await startBuiltServer({
    DATABASE_URL: databaseUrl(admin, db.name),
    ADMIN_EMAIL: ADMIN.email,
    ADMIN_PASSWORD: ADMIN.password,
    RATE_LIMIT_PUBLIC_FORMS: "100000",
    GENERATION_DELAY_MS: "0",
  });
  jars.customer = await signUp(server.url, "probe-customer@example.org");
  jars.other = await signUp(server.url, "probe-other@example.org");
  jars.admin = await signIn(server.url, ADMIN.email, ADMIN.password);
  const api = async (p: string, jar: string, init: RequestInit = {}) => {
    const res = await fetch(server.url + "/api" + p, {
      ...init,
      headers: { cookie: jar, "content-type": "application/json", ...init.headers },
    });
    return res.json() as Promise<Record<string, unknown> & { insertedId?: string }>;
  };
  const pricing = (await (await fetch(server.url + "/api/pricings")).json()) as { _id: string }[];
  ids.package = pricing[0]!._id;
  ids.content = ids.package;
  ids.order = (
    await api("/new-order", jars.customer, {
      method: "POST",
      body: JSON.stringify({ packageId: ids.package, customerName: "C", customerAddress: "A", customerCountry: "UK" }),
    })
  ).insertedId!;
  await api("/add-message", "", {
    method: "POST",
    body: JSON.stringify({ name: "A", email: "a@example.org", subject: "S", message: "M" }),
  });
  ids.message = (await db.pool.query("select id from messages limit 1")).rows[0].id;
  ids.user = (await db.pool.query("select id from admin_users limit 1")).rows[0].id;
  ids.paypal = (
    await api("/add-email", jars.admin, {
      method: "POST",
      body: JSON.stringify({ paypalEmail: "till@example.org" }),
    })
  ).insertedId!;
  // The first start seeds one catalogue item per category.
  ids.item = (await db.pool.query("select id from catalogue_items where item_database_url = 'web-design'")).rows[0].id;
});
afterAll(async () => {
  await server?.stop();
  await db?.drop();
});

type RouteEntry = { path?: string; file: string; index?: boolean; children?: RouteEntry[] };
type Page = { path: string; access: "public" | "user" | "staff"; file: string };

/** Every page of app/routes.ts, with the audience its folder says it is for. */
function pages(): Page[] {
  const out: Page[] = [];
  const walk = (entries: RouteEntry[]) => {
    for (const r of entries) {
      if (r.children) walk(r.children);
      if (r.path === undefined && !r.index) continue;
      const access = r.file.includes("routes/admin/")
        ? "staff"
        : r.file.includes("routes/customer/")
          ? "user"
          : "public";
      out.push({ path: "/" + (r.path ?? ""), access, file: r.file });
    }
  };
  walk(routes as unknown as RouteEntry[]);
  return out;
}

/** One address per page and candidate record (an :id page is tried with each kind of id, the order first). */
function addresses(page: Page): string[] {
  if (page.path === "/*") return ["/no-such-page"];
  if (page.path.includes(":file"))
    return ["orders.csv", "subscribers.csv", "messages.csv"].map((f) => page.path.replace(":file", f));
  if (!page.path.includes(":id")) return [page.path];
  return [...new Set(Object.values(ids).filter(Boolean))].map((id) => page.path.replace(":id", id));
}

const get = (p: string, jar: string) =>
  fetch(server.url + p, { redirect: "manual", headers: jar ? { cookie: jar } : {} });
const post = (p: string, jar: string, body = "intent=delete") =>
  fetch(server.url + p, {
    method: "POST",
    redirect: "manual",
    headers: { "content-type": "application/x-www-form-urlencoded", ...(jar ? { cookie: jar } : {}) },
    body,
  });
const toLogin = (res: Response) =>
  res.status >= 300 && res.status < 400 && /^\/login\b/.test(res.headers.get("location") ?? "");

describe("the route × role matrix over every page", () => {
  it("no page leaks to a role it is not for, and none answers 5xx", async () => {
    const all = pages();
    expect(all.length).toBeGreaterThan(60);
    let checks = 0;
    const leaks: string[] = [];
    const errors: string[] = [];
    for (const page of all) {
      for (const address of addresses(page)) {
        const owner: Record<string, number> = {};
        for (const role of ["visitor", "customer", "other", "admin"] as const) {
          const res = await get(address, jars[role]);
          await res.arrayBuffer();
          checks++;
          owner[role] = res.status;
          if (res.status >= 500) errors.push(`GET ${address} as ${role}: ${res.status}`);
          const mayNotSee =
            (page.access !== "public" && role === "visitor") || (page.access === "staff" && role !== "admin");
          if (mayNotSee && res.status < 300) leaks.push(`GET ${address} as ${role}: ${res.status}`);
          if (mayNotSee && res.status >= 300 && res.status < 400 && role === "visitor" && !toLogin(res)) {
            leaks.push(`GET ${address} as visitor went to ${res.headers.get("location")}`);
          }
          // A record of the customer's (their order) is not another customer's to see.
          if (
            role === "other" &&
            address.includes(ids.order) &&
            page.access === "user" &&
            owner.customer === 200 &&
            res.status === 200
          ) {
            leaks.push(`GET ${address}: another customer sees the customer's order`);
          }
          // Writes: a page's action refuses whoever may not see the page.
          if (mayNotSee) {
            const w = await post(address, jars[role]);
            await w.arrayBuffer();
            checks++;
            if (w.status >= 500) errors.push(`POST ${address} as ${role}: ${w.status}`);
            if (w.status < 300 || (w.status < 400 && !toLogin(w)))
              leaks.push(`POST ${address} as ${role}: ${w.status}`);
          }
        }
      }
    }
    console.info(`route × role matrix (pages): ${checks} checks over ${all.length} pages, ${leaks.length} leaks`);
    expect(leaks).toEqual([]);
    expect(errors).toEqual([]);
  }, 600_000);
});

const FORM_PAGES = [
  "/contact",
  "/contact-us",
  "/newsletter",
  "/login",
  "/register",
  "/reset",
  "/reset-password",
  "/staff/welcome",
  "/logout",
  "/paypal-simulator/checkoutnow",
  "/paypal-simulator/webapps/billing/subscriptions",
];

describe("hostile bodies to page forms (D6, D7)", () => {
  it("a body that is not a form answers 400/415, a NUL or lone surrogate 400, never 5xx", async () => {
    const bodies: [string, string, number[]][] = [
      ["application/json", '{"name":"a","email":"a@example.org"}', [415]],
      ["text/plain", "name=a", [415]],
      ["application/xml", "<a/>", [415]],
      ["multipart/form-data; boundary=xx", '--xx\r\nContent-Disposition: form-data; name="a"\r\n\r\nb', [400]],
      ["multipart/form-data", "no boundary", [400]],
      ["application/x-www-form-urlencoded", "name=a%00b&email=a%40example.org&subject=s&message=m", [400]],
      ["application/x-www-form-urlencoded", "email=a%00%40example.org&password=quiet-harbour-71", [400]],
    ];
    let tried = 0;
    const wrong: string[] = [];
    for (const page of FORM_PAGES) {
      for (const jar of [jars.visitor, jars.customer]) {
        for (const [type, body, expected] of bodies) {
          const res = await fetch(server.url + page, {
            method: "POST",
            redirect: "manual",
            headers: { "content-type": type, ...(jar ? { cookie: jar } : {}) },
            body,
          });
          await res.arrayBuffer();
          tried++;
          if (!expected.includes(res.status))
            wrong.push(`${page} ${type} ${JSON.stringify(body.slice(0, 30))}: ${res.status}`);
        }
      }
    }
    console.info(`bad-input corpus (page forms): ${tried} requests, ${wrong.length} unexpected answers`);
    expect(wrong).toEqual([]);
  });

  it("20 concurrent 10 MB posts to /contact: 413 each, and the app's memory stays within 100 MB of idle (D1)", async () => {
    const pid = server.process.pid!;
    await fetch(server.url + "/contact").then((r) => r.arrayBuffer());
    const idle = rssMb(pid);
    let peak = idle;
    const sampler = setInterval(() => (peak = Math.max(peak, rssMb(pid))), 20);
    const chunk = Buffer.alloc(64 * 1024, "a");
    const one = (declared: boolean) =>
      new Promise<number>((resolve) => {
        const req = http.request(server.url + "/contact", {
          method: "POST",
          headers: {
            "content-type": "application/x-www-form-urlencoded",
            ...(declared ? { "content-length": String(10 * 1024 * 1024) } : { "transfer-encoding": "chunked" }),
          },
        });
        req.on("response", (res) => {
          res.resume();
          resolve(res.statusCode ?? 0);
          req.destroy();
        });
        req.on("error", () => resolve(-1));
        let sent = 0;
        const pump = () => {
          while (sent < 10 * 1024 * 1024) {
            sent += chunk.length;
            if (!req.write(chunk)) return void req.once("drain", pump);
          }
          req.end();
        };
        pump();
      });
    const started = Date.now();
    const statuses = await Promise.all(Array.from({ length: 20 }, (_, i) => one(i % 2 === 0)));
    const ms = Date.now() - started;
    clearInterval(sampler);
    console.info(
      `memory under 20 concurrent 10 MB posts: idle ${idle.toFixed(0)} MB, peak ${peak.toFixed(0)} MB ` +
        `(+${(peak - idle).toFixed(0)} MB), answered in ${ms} ms`,
    );
    // The server answers 413 and closes the connection without reading on: a client still writing sees either (on a
    // busy machine every one of the twenty may see the reset).
    expect(statuses.every((s) => s === 413 || s === -1)).toBe(true);
    // A client that waits for the answer before sending its body is told 413 from the declared length alone.
    const waiting = await new Promise<number>((resolve, reject) => {
      const req = http.request(server.url + "/contact", {
        method: "POST",
        headers: {
          "content-type": "application/x-www-form-urlencoded",
          "content-length": String(10 * 1024 * 1024),
        },
      });
      req.on("response", (res) => {
        res.resume();
        resolve(res.statusCode ?? 0);
        req.destroy();
      });
      req.on("error", reject);
      req.flushHeaders();
    });
    expect(waiting).toBe(413);
    expect(peak - idle).toBeLessThan(100);
    // The app still answers.
    expect((await fetch(server.url + "/healthz")).status).toBe(200);
  });
});

describe("the PayPal simulator pays only the order's owner (D5)", () => {
  /** The customer's pay button: the approval page's address, whose token is the PayPal order. */
  const startPaying = async (jar: string) => {
    const res = await post(`/pay-now/${ids.order}`, jar, "");
    await res.arrayBuffer();
    expect(res.status).toBe(303);
    return new URL(res.headers.get("location")!, server.url).searchParams.get("token")!;
  };

  it("a visitor or another customer pressing Pay on the customer's order changes nothing; the owner pays", async () => {
    // Fresh sessions: the form corpus above posted to /logout.
    jars.customer = await signIn(server.url, "probe-customer@example.org", "quiet-harbour-71");
    jars.other = await signIn(server.url, "probe-other@example.org", "quiet-harbour-71");
    for (const jar of [jars.visitor, jars.other]) {
      const start = await post(`/pay-now/${ids.order}`, jar, "");
      await start.arrayBuffer();
      expect(start.status === 404 || toLogin(start), `pay button: status ${start.status}`).toBe(true);
    }
    const body = new URLSearchParams({ token: await startPaying(jars.customer), intent: "paypal" }).toString();
    // What an approval at the simulator writes before it answers (its objects, the notices it will send): a refused
    // press wrote none of it, so nothing can arrive later either.
    const simulatorWrites = async () =>
      (
        await db.pool.query(
          `select (select count(*) from paypal_simulator_messages) + (select count(*) from paypal_simulator_rest_objects)
             + (select count(*) from paypal_simulator_webhook_transmissions) as n`,
        )
      ).rows[0].n as string;
    const before = await simulatorWrites();
    for (const jar of [jars.visitor, jars.other]) {
      const res = await post("/paypal-simulator/checkoutnow", jar, body);
      await res.arrayBuffer();
      expect(res.status, `status ${res.status}`).toBe(403);
    }
    expect(await simulatorWrites()).toBe(before);
    expect(
      (await db.pool.query("select payment_status from orders where id = $1", [ids.order])).rows[0].payment_status,
    ).toBe("UnPaid");
    const paid = await post("/paypal-simulator/checkoutnow", jars.customer, body);
    expect(paid.status).toBe(303);
    expect(Number(await simulatorWrites())).toBeGreaterThan(Number(before));
    await expect
      .poll(
        async () =>
          (await db.pool.query("select payment_status from orders where id = $1", [ids.order])).rows[0].payment_status,
      )
      .toBe("Paid");
  });
});

describe("script in every text field is escaped on every page and in CSV", () => {
  const SCRIPT = '<script>alert("xss")</script>';
  it("content, messages and orders carrying script render as text", async () => {
    const headers = { cookie: jars.admin, "content-type": "application/json" };
    let fields = 0;
    for (const s of sections) {
      const list = (await (await fetch(`${server.url}/api${s.api.list}`)).json()) as Record<string, unknown>[];
      const record = list[0];
      if (!record) continue;
      const body: Record<string, unknown> = {};
      for (const f of s.fields) {
        const kind = (f as { kind: string }).kind;
        body[f.name] =
          kind === "number"
            ? record[f.name]
            : kind === "text" || kind === "longText"
              ? `${SCRIPT}${f.name}`
              : record[f.name];
        if (kind === "text" || kind === "longText") fields++;
      }
      const res = await fetch(`${server.url}/api${s.api.update.replace(":id", String(record._id))}`, {
        method: "PUT",
        headers,
        body: JSON.stringify(body),
      });
      expect(res.status, `${s.type}: ${await res.text()}`).toBeLessThan(300);
      // A javascript: link is refused wherever a link is asked for.
      const link = s.fields.find((f) => ["url", "image", "link"].includes((f as { kind: string }).kind));
      if (link) {
        const bad = await fetch(`${server.url}/api${s.api.update.replace(":id", String(record._id))}`, {
          method: "PUT",
          headers,
          body: JSON.stringify({ ...body, [link.name]: "javascript:alert(1)" }),
        });
        expect(bad.status, `${s.type}.${link.name} javascript:`).toBe(400);
      }
    }
    await fetch(server.url + "/api/add-message", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: `=HYPERLINK("http://x")${SCRIPT}`,
        email: "x@example.org",
        subject: SCRIPT,
        message: SCRIPT,
      }),
    });
    expect(fields).toBeGreaterThan(20);
    const raw: string[] = [];
    for (const page of pages()) {
      for (const address of addresses(page)) {
        const res = await get(address, page.access === "public" ? "" : jars.admin);
        const text = await res.text();
        if (text.includes(SCRIPT)) raw.push(address);
        if (/href="javascript:/i.test(text)) raw.push(`${address} (javascript: link)`);
      }
    }
    expect(raw).toEqual([]);
    const csv = await (await get("/admin/export/messages.csv", jars.admin)).text();
    expect(csv).toContain(`"'=HYPERLINK(""http://x"")`);
  }, 300_000);
});
