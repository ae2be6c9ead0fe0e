import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { signIn } from "../support/accounts";
import { ADMIN, notifyContentChanged, startE2E, type E2EEnv } from "../support/e2e";
import { heading, logIn, main, register, toast } from "../support/pages";
import { ROOT } from "../support/server";

let env: E2EEnv;
// A short wait instead of the spec's 9 s, long enough to see the generating state.
const DELAY_MS = 600;
beforeAll(async () => {
  env = await startE2E({ GENERATION_DELAY_MS: String(DELAY_MS) });
  // These journeys stock the catalogue themselves, from empty: without the demo items of the first start.
  await env.db.pool.query("delete from catalogue_items");
  await notifyContentChanged(env.db);
});
afterAll(() => env?.close());

const webDesign = JSON.parse(readFileSync(path.join(ROOT, "server/catalogue/categories/web-design.json"), "utf8")) as {
  subject: string;
  body: string;
}[];

async function api(method: string, url: string, body?: unknown) {
  const jar = await signIn(env.server, ADMIN.email, ADMIN.password);
  const res = await fetch(env.server.url + url, {
    method,
    headers: { "content-type": "application/json", cookie: jar.header() },
    body: body === undefined ? undefined : JSON.stringify(body),
  });
  return { status: res.status, body: (await res.json()) as Record<string, unknown> };
}

async function itemId(name: string): Promise<string> {
  return (await env.db.pool.query("select id from catalogue_items where item_name = $1", [name])).rows[0].id;
}

describe("the catalogue in the browser", () => {
  it("an empty catalogue tells the admin on the dashboard where to stock it", async () => {
    const page = await newPage(env.browser, env.server.url);
    await logIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/dashboard");
    const grid = page.getByTestId("items-grid");
    expect(await grid.textContent()).toContain("No items are available yet. Add one per category in Items management.");
    await grid.getByRole("link", { name: "Items management" }).click();
    await page.waitForURL((u) => u.pathname === "/items-management");
    await page.context().close();
  });

  it("an admin adds, edits and deletes items in /items-management", async () => {
    const page = await newPage(env.browser, env.server.url);
    await logIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/items-management");
    const table = page.getByTestId("items-table");
    expect(await table.textContent()).toContain("No items found.");

    // The modal checks every field after trimming, with the spec's messages; nothing is sent.
    const modal = page.getByTestId("item-modal");
    await main(page).getByRole("button", { name: "+ Add New Item" }).click();
    await expect.poll(() => modal.isVisible()).toBe(true);
    expect(await modal.getByRole("heading").first().textContent()).toBe("Add New Item");
    await modal.getByLabel("Item Name").fill("   ");
    await modal.getByRole("button", { name: "Add Item" }).click();
    for (const text of [
      "Item name is required",
      "Description is required",
      "Category is required",
      "Guideline is required",
    ]) {
      await expect.poll(() => modal.getByText(text, { exact: true }).count(), { message: text }).toBe(1);
    }
    expect(await modal.getByLabel("Category").locator("option").allTextContents()).toEqual([
      "Select a category",
      "WEB DESIGN",
      "VIDEO EDITING",
      "SEO SERVICE",
      "GRAPHIC DESIGN",
      "FACEBOOK MARKETING",
    ]);
    await modal.getByLabel("Item Name").fill("  Web Design Leads! ");
    await modal.getByLabel("Description").fill("Small businesses with slow websites.");
    await modal.getByLabel("Category").selectOption({ label: "WEB DESIGN" });
    await modal.getByLabel("Guideline").fill("Name one page of theirs you looked at.");
    await modal.getByRole("button", { name: "Add Item" }).click();
    await expect.poll(() => modal.isVisible()).toBe(false);
    await expect.poll(() => table.textContent()).toContain("Web Design Leads!");
    const row = (await env.db.pool.query("select * from catalogue_items")).rows;
    expect(row).toMatchObject([
      { item_name: "Web Design Leads!", item_url: "web-design-leads", item_database_url: "web-design" },
    ]);

    // The used category is no longer offered for a new item; the edited item keeps its own.
    await main(page).getByRole("button", { name: "+ Add New Item" }).click();
    await expect.poll(() => modal.isVisible()).toBe(true);
    expect(await modal.getByLabel("Category").locator("option").allTextContents()).not.toContain("WEB DESIGN");
    // A click outside the modal closes it.
    await page.mouse.click(5, 5);
    await expect.poll(() => modal.isVisible()).toBe(false);

    await table.getByRole("button", { name: "Edit Web Design Leads!" }).click();
    await expect.poll(() => modal.isVisible()).toBe(true);
    expect(await modal.getByRole("heading").first().textContent()).toBe("Edit Item");
    expect(await modal.getByLabel("Category").inputValue()).toBe("web-design");
    expect(await modal.getByLabel("Category").locator("option").allTextContents()).toContain("WEB DESIGN");
    await modal.getByLabel("Item Name").fill("Web Design Leads");
    await modal.getByRole("button", { name: "Update Item" }).click();
    await expect.poll(() => modal.isVisible()).toBe(false);
    await expect.poll(() => table.getByRole("button", { name: "Edit Web Design Leads", exact: true }).count()).toBe(1);
    expect((await env.db.pool.query("select item_url from catalogue_items")).rows[0].item_url).toBe("web-design-leads");

    // With every category taken, the add button is disabled and the warning shows.
    for (const key of ["video-editing", "seo-service", "graphic-design", "facebook-marketing"]) {
      const added = await api("POST", "/api/add-database", {
        itemName: `Leads ${key}`,
        itemsDescription: "Prospects.",
        itemDatabaseUrl: key,
        itemsGuideline: "Be brief.",
      });
      expect(added.status).toBe(201);
    }
    await page.reload();
    const add = main(page).getByRole("button", { name: "+ Add New Item" });
    expect(await add.isDisabled()).toBe(true);
    expect(await add.getAttribute("title")).toBe("All URLs are already in use");
    expect(await main(page).textContent()).toContain(
      "All available Categories are currently in use. You need to delete an item to add a new one.",
    );

    // Delete asks first; refusing keeps the item: no call goes out (the one counted below is the accepted one's).
    const deletes: string[] = [];
    page.on("request", (r) => {
      if (r.method() !== "GET") deletes.push(`${r.method()} ${r.url()}`);
    });
    page.once("dialog", (d) => {
      expect(d.message()).toBe("Delete this item?");
      void d.dismiss();
    });
    await table.getByRole("button", { name: "Delete Leads graphic-design" }).click();
    expect(await table.getByText("Leads graphic-design").count()).toBe(1);
    page.once("dialog", (d) => void d.accept());
    await table.getByRole("button", { name: "Delete Leads graphic-design" }).click();
    await expect.poll(() => table.getByText("Leads graphic-design").count()).toBe(0);
    expect(deletes, "one call: the accepted delete's").toHaveLength(1);
    await expect.poll(() => add.isDisabled()).toBe(false);
    expect((await env.db.pool.query("select count(*)::int as n from catalogue_items")).rows[0].n).toBe(4);
    await page.context().close();
  });

  it("a customer without membership sees the lock, and the generator refuses them", async () => {
    const page = await newPage(env.browser, env.server.url);
    await register(page, { email: "window-shopper@example.org", password: "buyer-pass-1" });
    await page.goto("/dashboard");
    const grid = page.getByTestId("items-grid");
    expect(await grid.getAttribute("data-access")).toBe("false");
    const card = grid.getByTestId("item-card").filter({ hasText: "Web Design Leads" });
    expect(await card.textContent()).toContain("Premium Access Required");
    expect(await card.textContent()).toContain("Purchase a membership to unlock");
    expect(await card.getByRole("link", { name: "Upgrade Membership" }).getAttribute("href")).toBe("/pricing");
    expect(await grid.getByRole("link", { name: "Access" }).count()).toBe(0);
    // Nothing usable reaches the page: no guideline, no category, no template.
    const html = await page.content();
    expect(html).not.toContain("Name one page of theirs you looked at.");
    expect(html).not.toContain('"web-design"');
    expect(html).not.toContain("[Your Name]");

    const res = await page.goto(`/item/${await itemId("Web Design Leads")}`);
    expect(res!.status()).toBe(403);
    expect(await page.getByTestId("generator-error").textContent()).toBe("No active membership found");
    expect(await main(page).getByRole("button", { name: "Generate" }).count()).toBe(0);

    // The admin pages are not theirs.
    for (const p of ["/items-management", "/add-item"]) {
      expect((await page.goto(p))!.status(), p).toBe(403);
      expect(await heading(page).textContent()).toBe("You don't have any permission");
    }
    await page.context().close();

    // Signed out, the generator sends the visitor to sign in first.
    const visitor = await newPage(env.browser, env.server.url);
    const id = await itemId("Web Design Leads");
    await visitor.goto(`/item/${id}`);
    expect(new URL(visitor.url()).pathname).toBe("/login");
    await visitor.context().close();
  });

  it("a member opens an item, generates, copies, and edits the template on screen", async () => {
    const page = await newPage(env.browser, env.server.url);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
    await register(page, { email: "member@example.org", password: "buyer-pass-1" });
    const pricing = (await (await fetch(env.server.url + "/api/pricings")).json()) as {
      _id: string;
      packageName: string;
    }[];
    const placed = await page.request.post("/api/new-order", {
      data: {
        packageId: pricing.find((p) => p.packageName === "Basic")!._id,
        customerName: "Mia Member",
        customerAddress: "1 Dock Street, Leeds",
        customerCountry: "United Kingdom",
      },
      headers: { origin: env.server.url },
    });
    expect(placed.status()).toBe(201);
    const orderId = ((await placed.json()) as { insertedId: string }).insertedId;
    expect((await api("PUT", `/api/order/${orderId}`, { paymentStatus: "Paid" })).status).toBe(200);
    expect((await api("PUT", `/api/order-status/${orderId}`, { orderStatus: "Delivered" })).status).toBe(200);

    await page.goto("/dashboard");
    const grid = page.getByTestId("items-grid");
    expect(await grid.getAttribute("data-access")).toBe("true");
    expect(await grid.getByText("Premium Access Required").count()).toBe(0);
    const card = grid.getByTestId("item-card").filter({ hasText: "Web Design Leads" });
    const tooltip = card.locator("[role=tooltip]");
    expect(await tooltip.isVisible()).toBe(false);
    await card.getByRole("button", { name: "Guidelines" }).hover();
    await expect.poll(() => tooltip.isVisible()).toBe(true);
    expect(await tooltip.textContent()).toBe("Name one page of theirs you looked at.");
    expect(await tooltip.evaluate((el) => el.getBoundingClientRect().width)).toBe(250);
    await card.getByRole("link", { name: "Access" }).click();
    await page.waitForURL((u) => u.pathname.startsWith("/item/"));
    expect(new URL(page.url()).pathname).toBe(`/item/${await itemId("Web Design Leads")}`);
    // The address changes before the new page is drawn (a navigation in the browser renders in a transition).
    await expect.poll(() => heading(page).textContent()).toBe("Generate Web Design Leads");
    expect(await main(page).textContent()).toContain(
      "Create compelling, personalized cold emails in seconds with our AI-powered engine",
    );
    const info = page.getByTestId("item-info");
    expect(await info.textContent()).toContain("Small businesses with slow websites.");
    expect(await info.textContent()).toContain("Guidelines:");

    // A plain page with the generator's own small script: no React, no module script (decision 057).
    expect(await page.locator('script[type="module"], script[src]').count()).toBe(0);
    expect(await page.evaluate(() => document.documentElement.hasAttribute("data-hydrated"))).toBe(false);

    // Generating: the title changes for the fixed wait, then one template from the category shows.
    await main(page).getByRole("button", { name: "Generate" }).click();
    await expect.poll(() => heading(page).textContent()).toBe("AI is Writing Your Emails...");
    expect(await main(page).getByText("Crafting perfect emails...").count()).toBe(1);
    const results = page.getByTestId("generated");
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBe(1);
    expect(await heading(page).textContent()).toBe("Generate Web Design Leads");
    expect(await results.getByRole("heading", { level: 2 }).textContent()).toBe("Generated Cold Emails (1)");
    expect(await results.getByText("Ready to Use").count()).toBe(1);
    expect(await results.getByTestId("email-card").count()).toBe(1);
    expect(await results.getByRole("heading", { level: 3 }).textContent()).toBe("Email Template #1");
    const subject = (await results.getByTestId("email-subject").textContent())!;
    const shown = webDesign.find((t) => t.subject === subject);
    expect(shown, subject).toBeDefined();

    // Copy buttons put the text on the clipboard and say so.
    await results.getByRole("button", { name: "Copy Subject" }).click();
    await expect.poll(() => toast(page, "Copied Subject!").count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown!.subject);
    await results.getByRole("button", { name: "Copy Email Body" }).click();
    await expect.poll(() => toast(page, "Copied Email Body!").count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(shown!.body);
    // Success toasts go after 2 seconds.
    await expect.poll(() => page.getByText("Copied Subject!").count(), { timeout: 4000 }).toBe(0);

    // The editor: read-only until 'Edit Template'; 'Save Changes' replaces the text on screen and closes.
    await results.getByRole("button", { name: "Edit Template" }).click();
    const modal = page.getByTestId("template-modal");
    await expect.poll(() => modal.isVisible()).toBe(true);
    expect(await modal.getByRole("heading").textContent()).toBe("Email Template");
    expect(await modal.textContent()).toContain("Viewing Cold Email Template");
    const subjectField = modal.getByLabel("Subject");
    expect(await subjectField.inputValue()).toBe(shown!.subject);
    expect(await subjectField.getAttribute("readonly")).not.toBeNull();
    expect(await modal.getByRole("button", { name: "Save Changes" }).count()).toBe(0);
    await modal.getByRole("button", { name: "Edit Template" }).click();
    await expect.poll(() => subjectField.getAttribute("readonly")).toBeNull();
    await subjectField.fill("A better subject for [Company Name]");
    await modal.getByLabel("Email Body").fill("Hi [First Name],\n\nShort and kind.\n\n[Your Name]");
    await modal.getByRole("button", { name: "Save Changes" }).click();
    await expect.poll(() => modal.isVisible()).toBe(false);
    expect(await results.getByTestId("email-subject").textContent()).toBe("A better subject for [Company Name]");
    expect(await results.getByTestId("email-body").textContent()).toBe(
      "Hi [First Name],\n\nShort and kind.\n\n[Your Name]",
    );
    // On screen only: the category file is unchanged.
    const again = await page.request.get(`/api/database/${await itemId("Web Design Leads")}/templates`);
    expect(((await again.json()) as { data: unknown[] }).data).toEqual(webDesign);

    // A new generation clears the previous result first.
    await main(page).getByRole("button", { name: "Generate" }).click();
    await expect.poll(() => results.count()).toBe(0);
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBe(1);
    expect(webDesign.map((t) => t.subject)).toContain(await results.getByTestId("email-subject").textContent());
    await page.context().close();
  });

  it("reached from a page React runs, the generator is drawn by React and works the same", async () => {
    const page = await newPage(env.browser, env.server.url);
    await page.context().grantPermissions(["clipboard-read", "clipboard-write"], { origin: env.server.url });
    await logIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/account");
    // Every step below is a navigation in the browser: the same document all along.
    await page.evaluate(() => ((window as unknown as { sameDocument: boolean }).sameDocument = true));
    const sameDocument = () => page.evaluate(() => (window as unknown as { sameDocument?: boolean }).sameDocument);
    await page.locator("header").getByRole("link", { name: "Dashboard" }).first().click();
    const card = page.getByTestId("item-card").filter({ hasText: "Web Design Leads" });
    await card.getByRole("link", { name: "Access" }).click();
    await expect.poll(() => heading(page).textContent()).toBe("Generate Web Design Leads");
    expect(await sameDocument()).toBe(true);

    await main(page).getByRole("button", { name: "Generate" }).click();
    await expect.poll(() => heading(page).textContent()).toBe("AI is Writing Your Emails...");
    const results = page.getByTestId("generated");
    await expect.poll(() => results.count(), { timeout: 10_000 }).toBe(1);
    const subject = (await results.getByTestId("email-subject").textContent())!;
    expect(webDesign.map((t) => t.subject)).toContain(subject);
    await results.getByRole("button", { name: "Copy Subject" }).click();
    await expect.poll(() => toast(page, "Copied Subject!").count()).toBe(1);
    expect(await page.evaluate(() => navigator.clipboard.readText())).toBe(subject);

    await results.getByRole("button", { name: "Edit Template" }).click();
    const modal = page.getByTestId("template-modal");
    await expect.poll(() => modal.isVisible()).toBe(true);
    await modal.getByRole("button", { name: "Edit Template" }).click();
    await modal.getByLabel("Subject").fill("Changed on screen");
    await modal.getByRole("button", { name: "Save Changes" }).click();
    await expect.poll(() => modal.isVisible()).toBe(false);
    expect(await results.getByTestId("email-subject").textContent()).toBe("Changed on screen");
    // The backdrop and Escape close it too.
    await results.getByRole("button", { name: "Edit Template" }).click();
    await expect.poll(() => modal.isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => modal.isVisible()).toBe(false);
    expect(await sameDocument()).toBe(true);
    await page.context().close();
  });

  it("an admin stores a simple item in /add-item", async () => {
    const page = await newPage(env.browser, env.server.url);
    await logIn(page, ADMIN.email, ADMIN.password);
    await page.goto("/add-item");
    const form = main(page).locator("form");
    await form.getByRole("button", { name: "Add Item" }).click();
    for (const text of [
      "Format is required",
      "Canva link is required",
      "Image link is required",
      "Category is required",
      "Free or paid is required",
    ]) {
      await expect.poll(() => form.getByText(text, { exact: true }).count(), { message: text }).toBe(1);
    }
    await form.getByLabel("Format").selectOption("YouTube");
    await form.getByLabel("Canva Link").fill("ftp://canva.example/design");
    await form.getByLabel("Image Link").fill("https://images.example/thumb.png");
    await form.getByLabel("Category").fill("Kitchens");
    await form.getByLabel("Free or Paid").selectOption("Free");
    await form.getByRole("button", { name: "Add Item" }).click();
    await expect.poll(() => form.getByText("Canva link must be an http(s) address, such as https://…").count()).toBe(1);
    await form.getByLabel("Canva Link").fill("https://www.canva.com/design/DAF1/view");
    await form.getByRole("button", { name: "Add Item" }).click();
    await expect.poll(() => toast(page, "Item is Updated").count()).toBe(1);
    await expect.poll(() => page.getByTestId("simple-items").textContent()).toContain("Kitchens");
    expect(await form.getByLabel("Category").inputValue()).toBe("");
    const { rows } = await env.db.pool.query("select format, canva_link, category, free_or_paid from simple_items");
    expect(rows).toEqual([
      {
        format: "YouTube",
        canva_link: "https://www.canva.com/design/DAF1/view",
        category: "Kitchens",
        free_or_paid: "Free",
      },
    ]);
    await page.context().close();
  });

  it("the category files are not public", async () => {
    for (const p of [
      "/server/catalogue/categories/web-design.json",
      "/catalogue/categories/web-design.json",
      "/categories/web-design.json",
      "/web-design.json",
      "/assets/web-design.json",
      "/assets/..%2f..%2fserver%2fcatalogue%2fcategories%2fweb-design.json",
      "/build/server/main.js",
    ]) {
      const res = await fetch(env.server.url + p);
      expect(res.status, p).toBe(404);
      expect(await res.text(), p).not.toContain("[Your Name]");
    }
  });
});
