import { mkdirSync } from "node:fs";
import type { Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { MAX_TEXT } from "#domain/fields.ts";
import { sections, type FieldDef, type SectionDef } from "#domain/registry.ts";
import { DESKTOP, newPage, PHONE } from "../support/browser";
import { CUSTOMER_PASSWORD, signUp } from "../support/accounts";
import { ADMIN, logIn, startAdminE2E, type E2EEnv } from "../support/e2e";
import { PUBLIC_PAGES } from "../support/routes";

/**
 * Issue 28, part 3: content cannot break the layout. Every text field of every section of the registry holds one
 * unbroken word as long as a text field takes (300 characters; wide letters), every email field an address as long as
 * one may be, written through the REST calls the back office uses; then no public page scrolls sideways, on a phone
 * or a desktop.
 */
const WORD = "Wm".repeat(MAX_TEXT / 2);
const EMAIL = `${"w".repeat(240)}@example.org`;

/** Screenshots of the pages checked, to look at. */
const SHOTS = "/tmp/long-words";
mkdirSync(SHOTS, { recursive: true });

let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()), 120_000);
afterAll(() => env?.close());

/** A field's long value, or undefined to keep what the record holds (links, images, numbers). */
function long(field: FieldDef): string | undefined {
  if (field.kind === "text" || field.kind === "longText") return WORD;
  if (field.kind === "email") return EMAIL;
  return undefined;
}

/** A new record's value for a field that keeps what a record holds: a site path, an image of the seed, a number. */
function plain(field: FieldDef): string | number {
  if (field.kind === "number") return Math.max(field.min ?? 1, 1);
  if (field.kind === "image" || field.kind === "media") return "/images/logo.svg";
  return "/";
}

async function write(section: SectionDef) {
  const send = async (method: "POST" | "PUT", path: string, data: Record<string, unknown>) => {
    const res = await admin.request.fetch(`/api${path}`, { method, data, headers: { origin: env.server.url } });
    expect(res.status(), `${method} ${path}: ${await res.text()}`).toBeLessThan(300);
  };
  const { rows } = await env.db.pool.query<{ id: string; data: Record<string, unknown> }>(
    "select id, data from content_entries where type = $1 order by position",
    [section.type],
  );
  if (rows.length === 0) {
    const data = Object.fromEntries(section.fields.map((f) => [f.name, long(f) ?? plain(f)]));
    await send("POST", section.api.add, data);
    return;
  }
  for (const row of rows) {
    const data = { ...row.data };
    for (const f of section.fields) {
      const value = long(f);
      if (value !== undefined) data[f.name] = value;
    }
    await send("PUT", section.api.update.replace(":id", row.id), data);
  }
}

describe("a 300-character word in every text field of every section", () => {
  it("is saved in every section", async () => {
    for (const section of sections) await write(section);
    const { rows } = await env.db.pool.query<{ type: string }>(
      "select distinct type from content_entries where data::text like '%' || $1 || '%'",
      [WORD],
    );
    const withText = sections.filter((s) => s.fields.some((f) => long(f) !== undefined)).map((s) => s.type);
    expect(rows.map((r) => r.type).sort()).toEqual([...withText].sort());
  }, 120_000);

  for (const viewport of [PHONE, DESKTOP]) {
    it(`leaves no public page wider than the screen at ${viewport.width} px`, async () => {
      const page = await newPage(env.browser, env.server.url, { viewport });
      const wide: string[] = [];
      let shown = 0;
      for (const path of PUBLIC_PAGES) {
        const res = await page.goto(path);
        expect(res?.status(), path).toBe(200);
        const { scroll, client, words } = await page.evaluate(
          (word) => ({
            scroll: document.documentElement.scrollWidth,
            client: document.documentElement.clientWidth,
            words: document.body.innerText.split(word).length - 1,
          }),
          WORD,
        );
        shown += words;
        if (scroll !== client) wide.push(`${path}: ${scroll} px wide in a ${client} px window`);
      }
      expect(wide).toEqual([]);
      // The word is on the pages (the footer alone carries it to each), or the test would prove nothing.
      expect(shown).toBeGreaterThan(PUBLIC_PAGES.length);
      await page.context().close();
    }, 120_000);
  }
});

/**
 * Issue 33, item 10: a customer's name is one unbroken word as long as the order form and the contact form take (120
 * characters, wide letters). Wherever it shows, for the customer and in the back office, no page scrolls sideways, no
 * table grows wider than its card, no part of the name is cut off, and the desk's Deliver button stays in view.
 */
describe("a 120-character unbroken name", () => {
  const NAME = "Wm".repeat(60);
  const email = "long-name@example.org";
  let orderId = "";
  let orderNumber = "";
  let userId = "";
  let messageId = "";

  const origin = () => ({ origin: env.server.url });
  it("is taken by the order form and the contact form", async () => {
    const jar = await signUp(env.server, email, { name: NAME });
    const { rows: packages } = await env.db.pool.query<{ id: string }>(
      "select id from content_entries where type = 'pricing' order by position limit 1",
    );
    const placed = await fetch(`${env.server.url}/api/new-order`, {
      method: "POST",
      headers: { "content-type": "application/json", cookie: jar.header(), ...origin() },
      body: JSON.stringify({
        packageId: packages[0]!.id,
        customerName: NAME,
        customerAddress: "12 Canal Wharf, Leeds",
        customerCountry: "United Kingdom",
      }),
    });
    expect(placed.status, await placed.clone().text()).toBe(201);
    orderId = ((await placed.json()) as { insertedId: string }).insertedId;
    // Paid and not yet delivered: the desk offers to deliver it.
    const paid = await admin.request.put(`/api/order/${orderId}`, {
      data: { paymentStatus: "Paid" },
      headers: origin(),
    });
    expect(paid.status()).toBe(200);
    const sent = await fetch(`${env.server.url}/api/add-message`, {
      method: "POST",
      headers: { "content-type": "application/json", ...origin() },
      body: JSON.stringify({ name: NAME, email, subject: "A question", message: "Hello" }),
    });
    expect(sent.status, await sent.clone().text()).toBeLessThan(300);
    ({ number: orderNumber, user_id: userId } = (
      await env.db.pool.query<{ number: string; user_id: string }>("select number, user_id from orders where id = $1", [
        orderId,
      ])
    ).rows[0]!);
    messageId = (await env.db.pool.query<{ id: string }>("select id from messages order by created_at desc limit 1"))
      .rows[0]!.id;
  });

  /** What is wrong with the page as it shows: its overflow, tables wider than their card, the name cut off. */
  async function faults(page: Page) {
    return page.evaluate((name) => {
      const out: string[] = [];
      const root = document.documentElement;
      if (root.scrollWidth > root.clientWidth) out.push(`the page is ${root.scrollWidth} px wide`);
      for (const box of document.querySelectorAll<HTMLElement>("[data-scroll-x]"))
        if (box.scrollWidth > box.clientWidth + 1) out.push(`a table is ${box.scrollWidth} px in ${box.clientWidth}`);
      const clips = (el: Element) => {
        const list: DOMRect[] = [];
        for (let e = el.parentElement; e; e = e.parentElement) {
          const s = getComputedStyle(e);
          if (s.overflowX !== "visible" || s.overflowY !== "visible") list.push(e.getBoundingClientRect());
        }
        return list;
      };
      const walker = document.createTreeWalker(document.body, NodeFilter.SHOW_TEXT);
      let shown = 0;
      for (let node = walker.nextNode(); node; node = walker.nextNode()) {
        if (!node.textContent?.includes(name.slice(0, 20))) continue;
        const el = node.parentElement!;
        if (el.closest("[hidden], template, .sr-only, [aria-hidden=true]") || el.getClientRects().length === 0)
          continue;
        shown++;
        const range = document.createRange();
        range.selectNodeContents(node);
        const r = range.getBoundingClientRect();
        if (r.right > root.clientWidth + 1 || r.left < -1) out.push(`the name runs to ${Math.round(r.right)} px`);
        for (const c of clips(el))
          if (r.right > c.right + 1 || r.left < c.left - 1)
            out.push(`the name (${Math.round(r.left)}-${Math.round(r.right)}) is cut at ${Math.round(c.right)} px`);
      }
      if (shown === 0) out.push("the name is not on the page");
      return out;
    }, NAME);
  }

  const customerPages = () => ["/my-order", "/dashboard", `/invoice/${orderNumber}`];
  const deskPages = () => [
    "/total-orders",
    "/total-orders?view=to-deliver",
    "/admin",
    "/all-messages",
    `/view/${messageId}`,
    "/activity",
    "/customers",
    `/customers/${userId}`,
    `/admin/payment-status/${orderId}`,
  ];

  for (const viewport of [PHONE, DESKTOP]) {
    it(`keeps every page that shows it within the screen at ${viewport.width} px, the Deliver button in view`, async () => {
      const customer = await newPage(env.browser, env.server.url, { viewport });
      await logIn(customer, email, CUSTOMER_PASSWORD);
      const staff = await newPage(env.browser, env.server.url, { viewport });
      await logIn(staff, ADMIN.email, ADMIN.password);
      const found: string[] = [];
      const check = async (page: Page, path: string) => {
        const res = await page.goto(path);
        expect(res?.status(), path).toBe(200);
        await page.waitForLoadState("networkidle");
        found.push(...(await faults(page)).map((f) => `${path}: ${f}`));
        const file = path.replace(/[^a-z0-9]+/gi, "-").replace(/^-|-$/g, "") || "home";
        await page.screenshot({ path: `${SHOTS}/${viewport.width}-${file}.png`, fullPage: true });
      };
      for (const path of customerPages()) await check(customer, path);
      for (const path of deskPages()) {
        await check(staff, path);
        if (!path.startsWith("/total-orders")) continue;
        // The Deliver button of the order shows, within the screen and the table's card.
        const deliver = staff.getByRole("button", { name: `Deliver the order of ${NAME}` });
        expect(await deliver.count(), path).toBe(1);
        await deliver.scrollIntoViewIfNeeded();
        const inView = await deliver.evaluate((button) => {
          const r = button.getBoundingClientRect();
          const card = button.closest("[data-scroll-x]")?.getBoundingClientRect() ?? r;
          return r.left >= Math.max(0, card.left) - 1 && r.right <= Math.min(innerWidth, card.right) + 1;
        });
        if (!inView) found.push(`${path}: the Deliver button is off-screen`);
      }
      expect(found).toEqual([]);
      await customer.context().close();
      await staff.context().close();
    }, 120_000);
  }
});
