import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { TOAST_LIMIT } from "#app/lib/toast-times.ts";
import { CUSTOMER_PASSWORD, signIn, signUp } from "../support/accounts";
import { DESKTOP, newPage, nextFrames } from "../support/browser";
import { ADMIN, logIn, startE2E, type E2EEnv } from "../support/e2e";
import { main, toast } from "../support/pages";
import { CookieJar } from "../support/session";

/**
 * Issue 33, items 7 and 15, as a person sees them: the order page's buttons all wait for a request in flight, the
 * item page's toasts stop at the limit, the desk keeps the focus after Deliver and has no form inside a span, the
 * footer's newsletter field and button show their focus clearly, and the payment page without scripts says what is
 * true.
 */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E({ GENERATION_DELAY_MS: "200" });
}, 120_000);
afterAll(() => env?.close());

const origin = () => ({ origin: env.server.url });
const adminJar = new CookieJar();

async function api(jar: CookieJar, path: string, method: string, json: unknown) {
  const res = await fetch(env.server.url + path, {
    method,
    headers: { "content-type": "application/json", cookie: jar.header(), ...origin() },
    body: JSON.stringify(json),
  });
  expect(res.status, `${method} ${path}: ${await res.clone().text()}`).toBeLessThan(300);
  return res;
}

let customers = 0;
/** A customer's order of the first package (paid when asked, so the desk offers to deliver it): its id and email. */
async function order(name: string, paid: boolean): Promise<{ id: string; email: string }> {
  const email = `buyer-${++customers}@example.org`;
  const jar = await signUp(env.server, email);
  const [pkg] = (await env.db.pool.query("select id from content_entries where type = 'pricing' order by position"))
    .rows;
  const res = await api(jar, "/api/new-order", "POST", {
    packageId: pkg.id,
    customerName: name,
    customerAddress: "12 Canal Wharf, Leeds",
    customerCountry: "United Kingdom",
  });
  const { insertedId: id } = (await res.json()) as { insertedId: string };
  if (paid) {
    if (!adminJar.size) await api(adminJar, "/api/auth/sign-in/email", "POST", ADMIN).then((r) => adminJar.store(r));
    await api(adminJar, `/api/order/${id}`, "PUT", { paymentStatus: "Paid" });
  }
  return { id, email };
}

async function staffPage(): Promise<Page> {
  const page = await newPage(env.browser, env.server.url, { viewport: DESKTOP });
  await logIn(page, ADMIN.email, ADMIN.password);
  return page;
}

/** Holds every form post of the page until `release()`: the moment a request is in flight. */
async function holdPosts(page: Page) {
  let release!: () => void;
  const gate = new Promise<void>((resolve) => (release = resolve));
  await page.route("**/*", async (route) => {
    if (route.request().method() === "POST") await gate;
    await route.continue();
  });
  return { release };
}

const isDisabled = (button: Locator) => button.evaluate((b) => (b as HTMLButtonElement).disabled);

describe("the order page while a form is sent (item 7)", () => {
  it("disables every button of the page; the pressed one reads 'Updating...'", async () => {
    const { id } = await order("Ada Byron", true);
    const page = await staffPage();
    await page.goto(`/admin/payment-status/${id}`);
    const payment = main(page).getByRole("button", { name: "Update Payment Status" });
    const status = main(page).getByRole("button", { name: "Update Order Status" });
    const deliver = main(page).getByRole("button", { name: "Deliver now" });
    expect(await deliver.count()).toBe(1);
    const { release } = await holdPosts(page);
    await main(page).getByLabel("Payment Status").selectOption("Paid");
    await payment.click();
    const pressed = main(page).getByRole("button", { name: "Updating..." });
    await expect.poll(() => pressed.count()).toBe(1);
    expect(await isDisabled(pressed)).toBe(true);
    expect(await isDisabled(status)).toBe(true);
    expect(await isDisabled(deliver)).toBe(true);
    release();
    await expect.poll(() => toast(page, "Payment Status Updated Successfully!").count()).toBeGreaterThan(0);
    await expect.poll(() => isDisabled(payment)).toBe(false);
    expect(await isDisabled(status)).toBe(false);
    expect(await isDisabled(deliver)).toBe(false);
    await page.context().close();
  });
});

describe("the order page's Deliver now (item 15)", () => {
  it("leaves the focus on the order status field once the banner and its button are gone", async () => {
    const { id } = await order("Ada Lovelace", true);
    const page = await staffPage();
    await page.goto(`/admin/payment-status/${id}`);
    await main(page).getByRole("button", { name: "Deliver now" }).focus();
    await page.keyboard.press("Enter");
    await expect.poll(() => main(page).getByRole("button", { name: "Deliver now" }).count()).toBe(0);
    await expect
      .poll(() => page.evaluate(() => (document.activeElement as HTMLSelectElement | null)?.name ?? ""))
      .toBe("orderStatus");
    await page.context().close();
  });
});

describe("the item page's toasts (item 7)", () => {
  it(`show at most ${TOAST_LIMIT} after 25 quick copies`, async () => {
    const page = await staffPage();
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
    const [item] = (await env.db.pool.query("select id from catalogue_items order by item_name limit 1")).rows;
    await page.goto(`/item/${item.id}`);
    await main(page).getByRole("button", { name: "Generate" }).click();
    const copy = page.getByTestId("generated").getByRole("button", { name: "Copy Subject" });
    await expect.poll(() => copy.count(), { timeout: 10_000 }).toBe(1);
    // Each copy's write to the clipboard, counted when it has answered.
    await page.evaluate(() => {
      const w = window as unknown as { copied: number };
      const write = navigator.clipboard.writeText.bind(navigator.clipboard);
      w.copied = 0;
      navigator.clipboard.writeText = async (text: string) => {
        await write(text);
        w.copied++;
      };
    });
    await copy.evaluate((button: HTMLElement) => {
      for (let i = 0; i < 25; i++) button.click();
    });
    await expect.poll(() => toast(page, "Copied Subject!").count()).toBeGreaterThanOrEqual(TOAST_LIMIT);
    // Every copy has answered, its toast drawn, and the region holds the limit, not one toast more.
    await expect.poll(() => page.evaluate(() => (window as unknown as { copied: number }).copied)).toBe(25);
    await nextFrames(page);
    expect(await page.getByTestId("toasts").locator(":scope > *").count()).toBe(TOAST_LIMIT);
    await page.context().close();
  });
});

describe("the desk (item 15)", () => {
  it("draws no form inside a span, and keeps the focus on a sensible element after Deliver", async () => {
    const first = await order("Grace Hopper", true);
    await order("Hedy Lamarr", true);
    const page = await staffPage();
    await page.goto("/total-orders");
    expect(await page.locator("span form, span div, span p").count()).toBe(0);

    // In all orders the row stays (now delivered): the focus goes to its Update link.
    await page.getByRole("button", { name: "Deliver the order of Grace Hopper" }).focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("href") ?? document.activeElement?.tagName))
      .toBe(`/admin/payment-status/${first.id}`);

    // In "To deliver" the row goes: the focus goes to the next order's Deliver button, then, with none left, to the
    // table saying there is nothing to deliver.
    await order("Katherine Johnson", true);
    await page.goto("/total-orders?view=to-deliver");
    await page.getByRole("button", { name: "Deliver the order of Hedy Lamarr" }).focus();
    await page.keyboard.press("Enter");
    await expect
      .poll(() => page.evaluate(() => document.activeElement?.getAttribute("aria-label")))
      .toBe("Deliver the order of Katherine Johnson");
    // Each next Deliver pressed from the keyboard, until none is left (orders of the other tests wait here too).
    const focused = () => page.evaluate(() => document.activeElement?.getAttribute("aria-label") ?? "");
    for (let left = await focused(); left.startsWith("Deliver the order of"); left = await focused()) {
      await page.keyboard.press("Enter");
      // Settled: on another order's Deliver button, or on the table once none is left.
      await expect
        .poll(async () => {
          const now = await focused();
          const text = await page.evaluate(() => document.activeElement?.textContent ?? "");
          return now !== left && (now.startsWith("Deliver the order of") || text.includes("Nothing to deliver"));
        })
        .toBe(true);
    }
    expect(await page.evaluate(() => document.activeElement?.textContent ?? "")).toContain("Nothing to deliver");
    expect(await page.evaluate(() => document.activeElement?.closest("[data-testid=total-orders]") !== null)).toBe(
      true,
    );
    await page.context().close();
  });
});

/**
 * WCAG 2.2's focus appearance (2.4.13): the pixels that change between the element unfocused and focused, with a
 * contrast of at least 3:1 between the two states, cover at least a 2 px thick perimeter of the element.
 */
async function focusArea(page: Page, element: Locator, focus: () => Promise<void>) {
  await element.scrollIntoViewIfNeeded();
  const box = (await element.boundingBox())!;
  const pad = 6;
  const clip = { x: box.x - pad, y: box.y - pad, width: box.width + 2 * pad, height: box.height + 2 * pad };
  await page.evaluate(() => (document.activeElement as HTMLElement | null)?.blur());
  const before = (await page.screenshot({ clip, animations: "disabled" })).toString("base64");
  await focus();
  await nextFrames(page);
  const after = (await page.screenshot({ clip, animations: "disabled" })).toString("base64");
  const calc = await page.context().newPage();
  const changed = await calc.evaluate(
    async ([a, b]) => {
      const pixels = async (data: string) => {
        const img = new Image();
        img.src = `data:image/png;base64,${data}`;
        await img.decode();
        const canvas = document.createElement("canvas");
        canvas.width = img.width;
        canvas.height = img.height;
        const ctx = canvas.getContext("2d")!;
        ctx.drawImage(img, 0, 0);
        return ctx.getImageData(0, 0, img.width, img.height).data;
      };
      const [x, y] = [await pixels(a!), await pixels(b!)];
      const lin = (c: number) => ((c /= 255) <= 0.04045 ? c / 12.92 : ((c + 0.055) / 1.055) ** 2.4);
      const lum = (d: Uint8ClampedArray, i: number) =>
        0.2126 * lin(d[i]!) + 0.7152 * lin(d[i + 1]!) + 0.0722 * lin(d[i + 2]!);
      let n = 0;
      for (let i = 0; i < x.length; i += 4) {
        const [l1, l2] = [lum(x, i), lum(y, i)];
        if ((Math.max(l1, l2) + 0.05) / (Math.min(l1, l2) + 0.05) >= 3) n++;
      }
      return n;
    },
    [before, after],
  );
  await calc.close();
  return { changed, needed: 2 * (2 * box.width + 2 * box.height) };
}

describe("the footer's newsletter form (item 15)", () => {
  it("shows the field's and the Subscribe button's focus clearly, unclipped", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport: DESKTOP });
    await page.goto("/contact");
    const footer = page.locator("footer");
    const field = footer.getByLabel("Email address");
    const button = footer.getByRole("button", { name: "Subscribe" });
    const fieldArea = await focusArea(page, field, () => field.focus());
    expect(fieldArea.changed, "the field's focus").toBeGreaterThanOrEqual(fieldArea.needed);
    const buttonArea = await focusArea(page, button, async () => {
      await field.focus();
      await page.keyboard.press("Tab");
      expect(await button.evaluate((b) => b === document.activeElement && b.matches(":focus-visible"))).toBe(true);
    });
    expect(buttonArea.changed, "the button's focus").toBeGreaterThanOrEqual(buttonArea.needed);
    await page.context().close();
  });
});

describe("the payment page without scripts (item 15)", () => {
  it("does not say it updates by itself; it says how to see the confirmation", async () => {
    const { id, email } = await order("Mary Somerville", false);
    // A browser without scripts, with the customer's session (signed in over REST: the login page is the subject of
    // other tests).
    const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    const jar = await signIn(env.server, email, CUSTOMER_PASSWORD);
    await context.addCookies(
      jar
        .header()
        .split("; ")
        .map((pair) => pair.split("="))
        .map(([name, ...value]) => ({ name: name!, value: value.join("="), url: env.server.url })),
    );
    const page = await context.newPage();
    await page.goto(`/received-payment/${id}`);
    expect(await page.locator("html[data-hydrated]").count()).toBe(0);
    const text = (await main(page).getByRole("status").textContent()) ?? "";
    expect(text).not.toContain("updates by itself");
    expect(text).toContain("reload this page");
    await main(page).getByRole("link", { name: "reload this page" }).click();
    await page.waitForURL((u) => u.pathname === `/received-payment/${id}`);
    await page.context().close();

    // With scripts the page does update by itself, and says so.
    const live = await newPage(env.browser, env.server.url, { viewport: DESKTOP });
    await logIn(live, email, CUSTOMER_PASSWORD);
    await live.goto(`/received-payment/${id}`);
    await expect
      .poll(() => main(live).getByRole("status").textContent())
      .toContain("This page updates by itself as soon as PayPal confirms the payment.");
    await live.context().close();
  });
});
