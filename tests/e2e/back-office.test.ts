import type { Page, Route } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { newPage } from "../support/browser";
import { logIn, notifyContentChanged, openUntil, startAdminE2E, type E2EEnv } from "../support/e2e";
import { CUSTOMER_PASSWORD, signUp, signUpStaff } from "../support/accounts";
import { backOfficeNavLabels, heading, main, register, toast } from "../support/pages";
import { adminPagesWithAreas, downloadOf } from "../support/routes";
import { can, staffHome } from "#domain/capabilities.ts";
import { gate } from "../support/wait";

let env: E2EEnv;
let admin: Page;
beforeAll(async () => ({ env, admin } = await startAdminE2E()));
afterAll(() => env?.close());

describe("who may open the back office", () => {
  it("every admin page: a visitor goes to /login, a customer is refused, an Editor gets only the areas of the role, the admin gets it", async () => {
    const customer = await signUp(env.server, "nosy@example.org", { password: "secret-pass" });
    const editor = await signUpStaff(env.server, env.db.pool, "editor@example.org", "Editor");
    const editorPages: Record<string, string[]> = { allowed: [], refused: [] };
    // Every page under the admin layout in app/routes.ts, its downloads among them; an :id names no record (404 to the
    // admin, after the guards), a download is its CSV.
    const [{ id: unknownId }] = (await env.db.pool.query("select gen_random_uuid() as id")).rows;
    const pages = await adminPagesWithAreas({
      resources: true,
      fill: (param, route) => (param === "file" ? downloadOf(route) : unknownId),
    });
    const unknown = (path: string) => path.includes(`/${unknownId}`);
    const adminCookies = (await admin.context().cookies()).map((c) => `${c.name}=${c.value}`).join("; ");
    for (const { path, area } of pages) {
      // The Editor: what domain/capabilities.ts opens to the role, nothing else; the dashboard sends them to /setting.
      const asEditor = await fetch(env.server.url + path, { headers: { cookie: editor.header() }, redirect: "manual" });
      if (area === "home") {
        expect(asEditor.status, `${path} as an Editor`).toBe(302);
        expect(asEditor.headers.get("location")).toBe(staffHome("Editor"));
      } else if (can("Editor", area)) {
        expect(asEditor.status, `${path} as an Editor`).toBe(unknown(path) ? 404 : 200);
        editorPages.allowed!.push(path);
      } else {
        expect(asEditor.status, `${path} as an Editor`).toBe(403);
        editorPages.refused!.push(path);
      }
      const visitor = await fetch(env.server.url + path, { redirect: "manual" });
      expect(visitor.status, `${path} signed out`).toBe(302);
      expect(visitor.headers.get("location"), path).toBe(`/login?redirectTo=${encodeURIComponent(path)}`);
      expect(
        (await fetch(env.server.url + path, { headers: { cookie: customer.header() }, redirect: "manual" })).status,
        `${path} as a customer`,
      ).toBe(403);
      const res = await fetch(env.server.url + path, { headers: { cookie: adminCookies }, redirect: "manual" });
      expect(unknown(path) ? 404 : 200, `${path} as the admin`).toBe(res.status);
    }
    // The done-criterion of issue 25: the orders desk and the orders call are closed to an Editor.
    expect(editorPages.refused).toContain("/total-orders");
    expect((await fetch(env.server.url + "/api/orders", { headers: { cookie: editor.header() } })).status).toBe(403);
    console.info(
      `admin pages × Editor: ${pages.length} pages, ${editorPages.allowed!.length} opened, ${editorPages.refused!.length} refused`,
    );
  });

  it("shows an Editor only the areas of the role in the navigation", async () => {
    const page = await newPage(env.browser, env.server.url);
    await logIn(page, "editor@example.org", CUSTOMER_PASSWORD);
    await page.goto("/setting");
    const labels = await backOfficeNavLabels(page);
    expect(labels).toEqual([
      "Site content",
      "Articles",
      "Media library",
      "Items",
      "Add item",
      "Search listings",
      "Trash",
      "Messages",
    ]);
    await page.close();
  });
});

describe("what the spec says about single screens", () => {
  it("an unknown order shows 'Error fetching order details'; contact block titles link to their edit screens", async () => {
    await admin.goto("/admin/payment-status/00000000-0000-4000-8000-000000000000");
    const errorToast = admin.getByRole("alert").filter({ hasText: "Error fetching order details" });
    await expect.poll(() => errorToast.count()).toBe(2); // the toast, and the box in place of the order
    expect(await main(admin).getByRole("alert").textContent()).toContain("Error fetching order details");
    expect(await admin.getByRole("navigation", { name: "Back office" }).count()).toBe(1);

    await admin.goto("/add-contact/");
    const [first] = (
      await env.db.pool.query("select id, data from content_entries where type = 'contactBlock' limit 1")
    ).rows;
    const title = main(admin).getByRole("link", { name: String(first.data.contactTitle) });
    expect(await title.getAttribute("href")).toBe(`/edit-contact-page/${first.id}`);
  });
});

describe("editing the site", () => {
  it("edit the banner and see it on the landing page", async () => {
    await admin.goto("/edit-banner");
    await main(admin).getByRole("link", { name: "Edit Banner Section" }).click();
    await admin.waitForURL((u) => /^\/banner\/[0-9a-f-]{36}$/.test(u.pathname));
    const bannerHeading = main(admin).getByLabel("Banner Heading", { exact: true });
    await bannerHeading.fill("");
    // The page's data reloads slowly after the answer, as on a loaded server: the person corrects the field meanwhile,
    // and what they type must survive the reload. The reload is held until they have typed.
    const typed = gate();
    const slowReload = async (route: Route) => {
      if (route.request().method() === "GET") await typed.opened;
      await route.fallback();
    };
    await admin.route(/\.data(\?|$)/, slowReload);
    await main(admin).getByRole("button", { name: "Update Banner" }).click();
    await expect.poll(() => main(admin).getByText("Banner Heading is required").count()).toBe(1);
    await bannerHeading.fill("Rooms that work as hard as you do");
    typed.open();
    await expect.poll(() => main(admin).getByRole("button", { name: "Update Banner" }).isEnabled()).toBe(true);
    expect(await bannerHeading.inputValue()).toBe("Rooms that work as hard as you do");
    await admin.unroute(/\.data(\?|$)/, slowReload);
    await main(admin).getByRole("button", { name: "Update Banner" }).click();
    await expect.poll(() => toast(admin, "Banner is Updated").count()).toBeGreaterThan(0);

    const visitor = await newPage(env.browser, env.server.url);
    await visitor.goto("/");
    expect(await heading(visitor).textContent()).toBe("Rooms that work as hard as you do");
    await visitor.context().close();
  });

  it("add a second about section, then the maximum notice replaces the form", async () => {
    await env.db.pool.query(
      "delete from content_entries where id = (select id from content_entries where type = 'about' order by position desc limit 1)",
    );
    await notifyContentChanged(env.db);
    await openUntil(admin, "/edit-about", async () => (await admin.getByTestId("form-about-add").count()) === 1);
    const form = admin.getByTestId("form-about-add");
    const values: Record<string, string> = {
      "About Image": "/images/about-workspace.svg",
      "About Tagline": "Why clients return",
      "About Heading": "A second chapter for your space",
      "Point One": "Listening first",
      "Point One Details": "We start with how you live.",
      "Point Two": "Honest budgets",
      "Point Two Details": "Every cost is on paper before work starts.",
      "Point Three": "Finished properly",
      "Point Three Details": "Snagging is part of the job, not an extra.",
      "Button Text": "Talk to us",
      "Button Link": "/contact",
    };
    for (const [label, value] of Object.entries(values)) await form.getByLabel(label, { exact: true }).fill(value);
    await form.getByRole("button", { name: "Add About Section" }).click();
    await expect.poll(() => toast(admin, "About section added").count()).toBeGreaterThan(0);
    await expect
      .poll(() => admin.getByTestId("max-notice").textContent())
      .toBe("You have reached the maximum of 2 About sections.");
    expect(await admin.getByTestId("form-about-add").count()).toBe(0);

    // Each section has its update button, opening the form in a modal with a close button.
    await main(admin).getByRole("button", { name: "Update" }).last().click();
    const dialog = admin.getByRole("dialog", { name: "Update About Section" });
    await expect.poll(() => dialog.isVisible()).toBe(true);
    expect(await dialog.getByLabel("About Heading", { exact: true }).inputValue()).toBe(
      "A second chapter for your space",
    );
    await dialog.getByRole("button", { name: "Close" }).click();
    await expect.poll(() => dialog.isVisible()).toBe(false);
  });

  it("a singleton shows its add form when empty and only its edit link after the first add", async () => {
    await env.db.pool.query("delete from content_entries where type = 'copyright'");
    await notifyContentChanged(env.db);
    const form = admin.getByTestId("form-copyright-add");
    await openUntil(admin, "/add-copyright", async () => (await form.count()) === 1);
    await form.getByLabel("Copyright Text").fill("© 2026 Atelier North Studio. All rights reserved.");
    await form.getByRole("button", { name: "Add Copyright" }).click();
    await expect.poll(() => toast(admin, "Copyright is Updated").count()).toBeGreaterThan(0);
    await expect.poll(() => main(admin).getByRole("link", { name: "Edit Copyright" }).count()).toBe(1);
    expect(await admin.getByTestId("form-copyright-add").count()).toBe(0);
  });
});

describe("before the page is interactive", () => {
  it("content, payment-account and item forms still save, show the answer and keep what was typed", async () => {
    // A browser without JavaScript submits exactly what a click before hydration submits: a plain HTML form post.
    const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
    await context.addCookies(await admin.context().cookies());
    const page = await context.newPage();
    await page.goto("/edit-banner");
    await page.getByRole("main").getByRole("link", { name: "Edit Banner Section" }).click();
    await page.waitForURL((u) => /^\/banner\/[0-9a-f-]{36}$/.test(u.pathname));
    const form = page.getByTestId("form-banner-update");
    await form.getByLabel("Banner Heading", { exact: true }).fill("");
    await form.getByLabel("Banner Heading Two", { exact: true }).fill("Typed before an error");
    await form.getByRole("button", { name: "Update Banner" }).click();
    await page.waitForLoadState();
    expect(await form.getByRole("alert").first().textContent()).toBe("Please check the highlighted fields.");
    expect(await form.getByText("Banner Heading is required").count()).toBe(1);
    expect(await form.getByLabel("Banner Heading Two", { exact: true }).inputValue()).toBe("Typed before an error");

    await form.getByLabel("Banner Heading", { exact: true }).fill("Designed without a script");
    await form.getByRole("button", { name: "Update Banner" }).click();
    await page.waitForLoadState();
    expect(await form.getByRole("status").textContent()).toBe("Banner is Updated");
    const [row] = (await env.db.pool.query("select data from content_entries where type = 'banner'")).rows;
    expect(row.data.bannerHeading).toBe("Designed without a script");

    await page.goto("/add-paypal-Email");
    await page.getByRole("main").getByLabel("PayPal email").fill("not-an-email");
    await page.getByRole("main").getByRole("button", { name: "Add PayPal Email" }).click();
    await page.waitForLoadState();
    expect(await page.getByRole("main").getByLabel("PayPal email").inputValue()).toBe("not-an-email");
    expect(await page.getByRole("main").getByRole("alert").count()).toBeGreaterThan(0);

    await page.goto("/add-item");
    const main = page.getByRole("main");
    await main.getByLabel("Format").selectOption("Instagram");
    await main.getByLabel("Canva Link").fill("not a link");
    await main.getByRole("button", { name: "Add Item" }).click();
    await page.waitForLoadState();
    expect(await main.getByRole("alert").count()).toBeGreaterThan(0);
    expect(await main.getByLabel("Format").inputValue()).toBe("Instagram");
    expect(await main.getByLabel("Canva Link").inputValue()).toBe("not a link");
    await main.getByLabel("Free or Paid").selectOption("Free");
    await main.getByLabel("Canva Link").fill("https://www.canva.com/design/plain-html");
    await main.getByLabel("Image Link").fill("https://example.org/plain.png");
    await main.getByLabel("Category").fill("No-script posts");
    await main.getByRole("button", { name: "Add Item" }).click();
    await page.waitForLoadState();
    expect(await main.getByRole("status").first().textContent()).toBe("Item is Updated");
    expect(await main.getByTestId("simple-items").textContent()).toContain("No-script posts");
    await context.close();
  });
});

describe("running the business", () => {
  it("mark a message read and see it move from Unread to Read", async () => {
    await fetch(env.server.url + "/api/add-message", {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({
        name: "Iris Hale",
        email: "iris@example.org",
        number: "0113 496 0000",
        subject: "Kitchen redesign",
        message: "Could you visit next week?",
      }),
    });
    await admin.goto("/all-messages");
    await expect.poll(() => admin.getByTestId("unread-messages").textContent()).toContain("Kitchen redesign");
    await admin.getByTestId("unread-messages").getByRole("link", { name: "View Message" }).first().click();
    await admin.waitForURL((u) => u.pathname.startsWith("/view/"));
    await expect.poll(() => main(admin).textContent()).toContain("Could you visit next week?");
    await main(admin).getByRole("button", { name: "Mark Read" }).click();
    await expect.poll(() => toast(admin, "Message is Read").count()).toBeGreaterThan(0);
    await admin.goto("/all-messages");
    expect(await admin.getByTestId("unread-messages").textContent()).not.toContain("Kitchen redesign");
    expect(await admin.getByTestId("read-messages").textContent()).toContain("Kitchen redesign");
  });

  it("set an order Paid and Delivered; the customer's dashboard turns active; the log shows it", async () => {
    const customer = await newPage(env.browser, env.server.url);
    await register(customer, { email: "member@example.org", password: "member-pass-1" });
    const [{ id: pkg }] = (
      await env.db.pool.query(
        "select id from content_entries where type = 'pricing' and data->>'packageName' = 'Basic'",
      )
    ).rows;
    await customer.goto(`/order-now/${pkg}`);
    await main(customer).getByLabel("Full Name").fill("Mila Member");
    await main(customer).getByLabel("Address").fill("3 Dock Street, Leeds");
    await main(customer).getByLabel("Country").fill("United Kingdom");
    await main(customer).getByRole("button", { name: "Place Order Now" }).click();
    await customer.waitForURL((u) => u.pathname === "/pending-order");
    const orderId = new URL(customer.url()).searchParams.get("order")!;

    await admin.goto(`/admin/payment-status/${orderId}`);
    await main(admin).getByLabel("Payment Status").selectOption("Paid");
    await main(admin).getByRole("button", { name: "Update Payment Status" }).click();
    await expect.poll(() => toast(admin, "Payment Status Updated Successfully!").count()).toBeGreaterThan(0);
    // Paid but still Pending: its days start when it is delivered (decision 032).
    await expect
      .poll(() => toast(admin, "The membership starts when the order is set Delivered.").count())
      .toBeGreaterThan(0);
    await main(admin).getByLabel("Order Status").selectOption("Delivered");
    await main(admin).getByRole("button", { name: "Update Order Status" }).click();
    await expect.poll(() => toast(admin, "Order Status Updated Successfully!").count()).toBeGreaterThan(0);
    await expect
      .poll(() => toast(admin, "Membership validity has been calculated and set!").count())
      .toBeGreaterThan(0);
    await expect.poll(() => admin.getByTestId("order-details").textContent()).toMatch(/Paid.*Delivered/);

    await customer.goto("/dashboard");
    expect(await customer.getByTestId("membership-banner").getAttribute("data-state")).toBe("active");
    await customer.context().close();

    await admin.goto("/total-orders");
    expect(await admin.getByTestId("total-orders").textContent()).toContain("Active Member");
    await admin.goto("/activity");
    // Fields by their labels (issue 10, part 6).
    expect(await admin.getByTestId("activity").textContent()).toMatch(/Payment Status.*UnPaid.*Paid/s);
  });

  it("the orders CSV downloads and parses", async () => {
    await admin.goto("/total-orders");
    const [download] = await Promise.all([
      admin.waitForEvent("download"),
      main(admin).getByRole("link", { name: "Export CSV" }).click(),
    ]);
    const stream = await download.createReadStream();
    const chunks: Buffer[] = [];
    for await (const c of stream) chunks.push(c as Buffer);
    const text = Buffer.concat(chunks).toString("utf8");
    expect(text.charCodeAt(0)).toBe(0xfeff);
    const rows = text
      .slice(1)
      .trim()
      .split("\r\n")
      .map((r) => r.split(","));
    expect(rows[0]!.slice(0, 4)).toEqual(["Order Number", "Order ID", "Order Date", "Customer Name"]);
    expect(rows.length).toBeGreaterThanOrEqual(2);
    expect(rows.some((r) => r.includes("member@example.org") && r.includes("Paid") && r.includes("Delivered"))).toBe(
      true,
    );
    expect(download.suggestedFilename()).toMatch(/^orders-\d{4}-\d{2}-\d{2}\.csv$/);
  });
});
