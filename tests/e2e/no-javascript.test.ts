import type { Locator, Page } from "playwright-core";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { signIn, signUp } from "../support/accounts";
import { ADMIN, notifyContentChanged, openUntil, startE2E, type E2EEnv } from "../support/e2e";
import { linkOf, outbox } from "../support/mail";
import { heading, main, toast } from "../support/pages";
import { DELETE_MESSAGES } from "#domain/privacy.ts";

/**
 * Every page form as a plain HTML post: a browser with JavaScript disabled fills it in, gets the refusal with what it
 * typed and the field's message, then gets the success. One case per form (issue 9, part 1); the cases run in order
 * and share what they made (accounts, an order, a message).
 */
let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

async function noScript(): Promise<Page> {
  const context = await env.browser.newContext({ baseURL: env.server.url, javaScriptEnabled: false });
  await context.route(/^https?:\/\/(?!127\.0\.0\.1|localhost)/, (route) =>
    route.fulfill({ status: 200, contentType: "text/html", body: "<!doctype html><title>external</title>" }),
  );
  return context.newPage();
}

/** Loads a page and proves that no script ran on it. */
async function open(page: Page, path: string) {
  const response = await page.goto(path);
  expect(response!.status(), path).toBeLessThan(400);
  expect(await page.locator("html[data-hydrated]").count(), `${path} ran a script`).toBe(0);
}

/** Submits as a browser without JavaScript does: a navigation to the form's action. */
async function post(page: Page, button: Locator) {
  await button.click();
  await page.waitForLoadState();
  expect(await page.locator("html[data-hydrated]").count()).toBe(0);
}

/** The error message wired to a field (aria-describedby), as assistive technology reads it. */
async function fieldError(scope: Locator, label: string) {
  const field = scope.getByLabel(label, { exact: true });
  expect(await field.getAttribute("aria-invalid"), label).toBe("true");
  const id = await field.getAttribute("aria-describedby");
  return scope.page().locator(`[id="${id}"]`).textContent();
}
const sql = async (query: string, values: unknown[] = []) => (await env.db.pool.query(query, values)).rows;

let admin: Page;
let customer: Page;
let orderId = "";
const CUSTOMER = { email: "plain-html@example.org", password: "plain-html-1" };

type Case = [form: string, run: () => Promise<void>];

const cases: Case[] = [
  [
    "/login",
    async () => {
      admin = await noScript();
      await open(admin, "/login");
      await main(admin).getByLabel("Email", { exact: true }).fill(ADMIN.email);
      await main(admin).getByLabel("Password", { exact: true }).fill("wrong-password");
      await post(admin, main(admin).getByRole("button", { name: "Login" }));
      expect(await main(admin).getByRole("alert").textContent()).toBe("Incorrect email or password. Please try again.");
      expect(await main(admin).getByLabel("Email", { exact: true }).inputValue()).toBe(ADMIN.email);
      expect(await main(admin).getByLabel("Password", { exact: true }).inputValue()).toBe("");
      await main(admin).getByLabel("Password", { exact: true }).fill(ADMIN.password);
      await post(admin, main(admin).getByRole("button", { name: "Login" }));
      expect(new URL(admin.url()).pathname).not.toBe("/login");
    },
  ],
  [
    "/register",
    async () => {
      customer = await noScript();
      await open(customer, "/register");
      await main(customer).getByLabel("Email", { exact: true }).fill("not-an-email");
      await main(customer).getByLabel("I accept the terms and the privacy notice").check();
      await post(customer, main(customer).getByRole("button", { name: "Register" }));
      expect(await fieldError(main(customer), "Email")).toBe("Provide a Valid Email");
      expect(await main(customer).getByLabel("Email", { exact: true }).inputValue()).toBe("not-an-email");
      await main(customer).getByLabel("Email", { exact: true }).fill(CUSTOMER.email);
      await main(customer).getByLabel("Password", { exact: true }).fill(CUSTOMER.password);
      await main(customer).getByLabel("I accept the terms and the privacy notice").check();
      await post(customer, main(customer).getByRole("button", { name: "Register" }));
      expect(new URL(customer.url()).pathname).toBe("/");
      expect(await sql("select email from public.user where email = $1", [CUSTOMER.email])).toHaveLength(1);
    },
  ],
  [
    "/reset",
    async () => {
      await signUp(env.server, "forgetful@example.org", { password: "old-pass-1" });
      const page = await noScript();
      await open(page, "/reset");
      await main(page).getByLabel("Email", { exact: true }).fill("");
      await post(page, main(page).getByRole("button", { name: "Submit" }));
      expect(await fieldError(main(page), "Email")).toBe("Email is Required");
      await main(page).getByLabel("Email", { exact: true }).fill("forgetful@example.org");
      await post(page, main(page).getByRole("button", { name: "Submit" }));
      expect(await toast(main(page), "Password reset. Check your inbox!").count()).toBe(1);
    },
  ],
  [
    "/reset-password",
    async () => {
      const mails = () =>
        outbox(env.server.dataDir).filter(
          (m) => m.subject === "Reset your password" && m.to[0]?.includes("forgetful@example.org"),
        );
      await expect.poll(() => mails().length).toBe(1);
      const page = await noScript();
      await page.goto(linkOf(mails()[0]!.raw));
      await page.waitForURL((u) => u.pathname === "/reset-password");
      await main(page).getByLabel("New password").fill("abc");
      await post(page, main(page).getByRole("button", { name: "Set New Password" }));
      expect(await fieldError(main(page), "New password")).toBe("Minimum 6 Characters");
      await main(page).getByLabel("New password").fill("new-pass-1");
      await post(page, main(page).getByRole("button", { name: "Set New Password" }));
      expect(new URL(page.url()).pathname + new URL(page.url()).search).toBe("/login?reset=done");
    },
  ],
  [
    "contact form (/contact)",
    async () => {
      const page = await noScript();
      await open(page, "/contact");
      const form = page.locator("#contact-sec form");
      await form.getByLabel("Full Name").fill("Nora Plain");
      await form.getByLabel("Email").fill("nora-at-example");
      await form.getByLabel("Subject").fill("No scripts here");
      await form.getByLabel("Message").fill("Sent from a browser without JavaScript.");
      await post(page, form.getByRole("button", { name: "Send Message" }));
      expect(await fieldError(form, "Email")).toBe("Please enter a valid email address");
      expect(await form.getByLabel("Message").inputValue()).toBe("Sent from a browser without JavaScript.");
      await form.getByLabel("Email").fill("nora@example.org");
      await post(page, form.getByRole("button", { name: "Send Message" }));
      expect(await toast(form, "Message is Updated").count()).toBe(1);
      expect(await form.getByLabel("Full Name").inputValue()).toBe("");
      expect(await sql("select subject from messages where email = 'nora@example.org'")).toEqual([
        { subject: "No scripts here" },
      ]);
    },
  ],
  [
    "newsletter (footer)",
    async () => {
      const page = await noScript();
      await open(page, "/pricing");
      await page.locator("footer").getByLabel("Email address").fill("plain-reader@example.org");
      await post(page, page.locator("footer").getByRole("button", { name: "Subscribe" }));
      expect(new URL(page.url()).pathname).toBe("/newsletter");
      expect(await heading(page).textContent()).toBe("Subscribers is Updated");
      expect(await sql("select subemail from subscribers")).toEqual([{ subemail: "plain-reader@example.org" }]);
    },
  ],
  [
    "/order-now/{id}",
    async () => {
      const [pkg] = await sql("select id from content_entries where type = 'pricing' order by position limit 1");
      await open(customer, `/order-now/${pkg.id}`);
      await main(customer).getByLabel("Address").fill("1 Plain Street");
      await post(customer, main(customer).getByRole("button", { name: "Place Order Now" }));
      expect(await fieldError(main(customer), "Full Name")).toBe("Full name is required");
      expect(await main(customer).getByLabel("Address").inputValue()).toBe("1 Plain Street");
      await main(customer).getByLabel("Full Name").fill("Nils Plain");
      await main(customer).getByLabel("Country").fill("Norway");
      await post(customer, main(customer).getByRole("button", { name: "Place Order Now" }));
      const url = new URL(customer.url());
      expect(url.pathname).toBe("/pending-order");
      orderId = url.searchParams.get("order")!;
      expect(orderId).toMatch(/^[0-9a-f-]{36}$/);
    },
  ],
  [
    "/dashboard: send the confirmation link again",
    async () => {
      await open(customer, "/dashboard");
      await post(customer, main(customer).getByRole("button", { name: "Send the link again" }));
      expect(await toast(main(customer), `We sent a new link to ${CUSTOMER.email}.`).count()).toBe(1);
    },
  ],
  [
    "/order-cancelled/{id}",
    async () => {
      const [pkg] = await sql("select id from content_entries where type = 'pricing' order by position limit 1");
      await open(customer, `/order-now/${pkg.id}`);
      await main(customer).getByLabel("Full Name").fill("Nils Plain");
      await main(customer).getByLabel("Address").fill("1 Plain Street");
      await main(customer).getByLabel("Country").fill("Norway");
      await post(customer, main(customer).getByRole("button", { name: "Place Order Now" }));
      const cancelled = new URL(customer.url()).searchParams.get("order")!;
      await open(customer, `/order-cancelled/${cancelled}`);
      expect(await customer.getByTestId("cancel-state").getAttribute("data-state")).toBe("working");
      await post(customer, main(customer).getByRole("button", { name: "Mark the order cancelled" }));
      expect(await customer.getByTestId("cancel-state").getAttribute("data-state")).toBe("done");
      expect(await sql("select payment_status from orders where id = $1", [cancelled])).toEqual([
        { payment_status: "Cancelled" },
      ]);
    },
  ],
  [
    "content screen: add a record (/edit-faq)",
    async () => {
      await open(admin, "/edit-faq");
      const form = admin.getByTestId("form-faqItem-add");
      await form.getByLabel("Question").fill("Does it work without scripts?");
      await post(admin, form.getByRole("button", { name: "Add FAQ Item" }));
      expect(await form.getByRole("alert").first().textContent()).toBe("Please check the highlighted fields.");
      expect(await form.getByLabel("Question").inputValue()).toBe("Does it work without scripts?");
      await form.getByLabel("Answer").fill("Yes: every form is a plain HTML post.");
      await post(admin, form.getByRole("button", { name: "Add FAQ Item" }));
      expect(await toast(form, "FAQ Item is Added").count()).toBe(1);
      expect(await form.getByLabel("Question").inputValue()).toBe("");
      expect(
        await sql("select 1 from content_entries where data->>'accodingTitle' = 'Does it work without scripts?'"),
      ).toHaveLength(1);
    },
  ],
  [
    "content screen: move and delete a record, with its confirmation (/edit-faq)",
    async () => {
      const title = "Does it work without scripts?";
      const order = async () =>
        (
          await sql("select data->>'accodingTitle' as t from content_entries where type = 'faqItem' order by position")
        ).map((r) => r.t as string);
      const before = await order();
      expect(before.at(-1)).toBe(title);
      await open(admin, "/edit-faq");
      await post(admin, main(admin).getByRole("button", { name: `Move ${title} up` }));
      expect(await toast(main(admin), "Order saved").count()).toBe(1);
      expect((await order()).at(-2)).toBe(title);
      // Delete opens the confirmation as an address (?delete=), which renders it open; Delete there posts.
      await post(admin, main(admin).getByRole("button", { name: `Delete ${title}` }));
      expect(new URL(admin.url()).searchParams.get("delete")).toBeTruthy();
      const dialog = admin.getByTestId("delete-dialog-faqItem");
      expect(await dialog.textContent()).toContain(title);
      await post(admin, dialog.getByRole("button", { name: "Delete" }));
      expect(await toast(main(admin), "FAQ Item deleted").count()).toBe(1);
      expect(await order()).not.toContain(title);
      expect(await order()).toHaveLength(before.length - 1);
    },
  ],
  [
    "/trash: Restore, and Delete now with its confirmation",
    async () => {
      const title = "Does it work without scripts?";
      const faqs = async () =>
        (await sql("select data->>'accodingTitle' as t from content_entries where type = 'faqItem'")).map((r) => r.t);
      await open(admin, "/trash");
      await post(admin, main(admin).getByRole("button", { name: `Restore ${title}` }));
      expect(await toast(main(admin), `Restored: “${title}”.`).count()).toBe(1);
      expect(await faqs()).toContain(title);
      // Deleted again, then for good: "Delete now" opens its confirmation as an address (?purge=).
      await open(admin, "/edit-faq");
      await post(admin, main(admin).getByRole("button", { name: `Delete ${title}` }));
      await post(admin, admin.getByTestId("delete-dialog-faqItem").getByRole("button", { name: "Delete" }));
      await open(admin, "/trash");
      await post(admin, main(admin).getByRole("link", { name: `Delete now: ${title}` }));
      expect(new URL(admin.url()).searchParams.get("purge")).toBeTruthy();
      await post(admin, admin.getByTestId("purge-dialog").getByRole("button", { name: "Delete for good" }));
      expect(await toast(main(admin), `Deleted for good: “${title}”.`).count()).toBe(1);
      expect(await sql("select count(*)::int as n from trash")).toEqual([{ n: 0 }]);
    },
  ],
  [
    "/activity: Restore this version, with its confirmation",
    async () => {
      const [banner] = await sql("select id, data from content_entries where type = 'banner'");
      const original = banner.data.bannerHeading as string;
      const put = await admin.request.fetch(`/api/update-banner/${banner.id}`, {
        method: "PUT",
        data: { ...banner.data, bannerHeading: "A heading to undo" },
        headers: { origin: env.server.url },
      });
      expect(put.status()).toBe(200);
      await open(admin, "/activity?kind=content%3Abanner");
      await post(admin, main(admin).getByRole("link", { name: "Restore this version" }).first());
      const dialog = admin.getByTestId("restore-version");
      expect(await dialog.textContent()).toContain(`Restored: ${original}`);
      await post(admin, dialog.getByRole("button", { name: "Restore this version" }));
      expect(await toast(main(admin), "Version restored").count()).toBe(1);
      expect(new URL(admin.url()).searchParams.has("restore")).toBe(false);
      expect(await sql("select data->>'bannerHeading' as h from content_entries where id = $1", [banner.id])).toEqual([
        { h: original },
      ]);
    },
  ],
  [
    "content screen: add a singleton (/add-copyright)",
    async () => {
      await sql("delete from content_entries where type = 'copyright'");
      await notifyContentChanged(env.db);
      const form = admin.getByTestId("form-copyright-add");
      await openUntil(admin, "/add-copyright", async () => (await form.count()) === 1);
      await form.getByLabel("Copyright Text").fill("© Plain HTML Studio");
      await post(admin, form.getByRole("button", { name: "Add Copyright" }));
      // Saved, the form gives way to the edit link; the answer still shows.
      expect(await toast(main(admin), "Copyright is Updated").count()).toBe(1);
      expect(await main(admin).getByRole("link", { name: "Edit Copyright" }).count()).toBe(1);
    },
  ],
  [
    "content screen: update in the modal (/edit-about)",
    async () => {
      await open(admin, "/edit-about");
      await post(admin, main(admin).getByRole("button", { name: "Update" }).first());
      const dialog = admin.getByRole("dialog", { name: "Update About Section" });
      expect(await dialog.isVisible()).toBe(true);
      await dialog.getByLabel("About Heading", { exact: true }).fill("Rewritten without a script");
      await post(admin, dialog.getByRole("button", { name: /^Update / }));
      expect(await toast(admin.getByRole("dialog"), "About section updated").count()).toBe(1);
      expect(
        await sql("select 1 from content_entries where data->>'aboutHeading' = 'Rewritten without a script'"),
      ).toHaveLength(1);
    },
  ],
  [
    "content edit screen (/banner/{id})",
    async () => {
      const [banner] = await sql("select id from content_entries where type = 'banner'");
      await open(admin, `/banner/${banner.id}`);
      const form = admin.getByTestId("form-banner-update");
      await form.getByLabel("Banner Heading", { exact: true }).fill("Plain and simple");
      await post(admin, form.getByRole("button", { name: "Update Banner" }));
      expect(await toast(form, "Banner is Updated").count()).toBe(1);
      expect(await form.getByLabel("Banner Heading", { exact: true }).inputValue()).toBe("Plain and simple");
    },
  ],
  [
    "/admin-user/{id}",
    async () => {
      const [row] = await sql("select id from admin_users limit 1");
      await open(admin, `/admin-user/${row.id}`);
      await main(admin).getByLabel("Admin email").fill("not-an-email");
      await post(admin, main(admin).getByRole("button", { name: "Update Admin" }));
      expect(await main(admin).getByRole("alert").count()).toBeGreaterThan(0);
      expect(await main(admin).getByLabel("Admin email").inputValue()).toBe("not-an-email");
      await main(admin).getByLabel("Admin email").fill(ADMIN.email);
      await post(admin, main(admin).getByRole("button", { name: "Update Admin" }));
      expect(await toast(main(admin), "Admin user is updated").count()).toBe(1);
    },
  ],
  [
    "/add-paypal-Email",
    async () => {
      await open(admin, "/add-paypal-Email");
      await main(admin).getByLabel("PayPal email").fill("payee-at-example");
      await post(admin, main(admin).getByRole("button", { name: "Add PayPal Email" }));
      expect(await fieldError(main(admin), "PayPal email")).toBe("PayPal email must be a valid email address");
      expect(await main(admin).getByLabel("PayPal email").inputValue()).toBe("payee-at-example");
      await main(admin).getByLabel("PayPal email").fill("payee@example.org");
      await post(admin, main(admin).getByRole("button", { name: "Add PayPal Email" }));
      expect(await toast(main(admin), "PayPal email is added").count()).toBe(1);
      expect(await sql("select paypal_email from payment_accounts")).toEqual([{ paypal_email: "payee@example.org" }]);
    },
  ],
  [
    "/paypal-email/{id}",
    async () => {
      const [account] = await sql("select id from payment_accounts");
      await open(admin, `/paypal-email/${account.id}`);
      await main(admin).getByLabel("PayPal email").fill("payee2@example.org");
      await post(admin, main(admin).getByRole("button", { name: "Update PayPal Email" }));
      expect(await toast(main(admin), "PayPal email is updated").count()).toBe(1);
      expect(await sql("select paypal_email from payment_accounts")).toEqual([{ paypal_email: "payee2@example.org" }]);
    },
  ],
  [
    "/add-item",
    async () => {
      await open(admin, "/add-item");
      await main(admin).getByLabel("Format").selectOption("YouTube");
      await post(admin, main(admin).getByRole("button", { name: "Add Item" }));
      expect(await fieldError(main(admin), "Canva Link")).toBe("Canva link is required");
      expect(await main(admin).getByLabel("Format").inputValue()).toBe("YouTube");
      await main(admin).getByLabel("Free or Paid").selectOption("Paid");
      await main(admin).getByLabel("Canva Link").fill("https://www.canva.com/design/no-script");
      await main(admin).getByLabel("Image Link").fill("https://example.org/no-script.png");
      await main(admin).getByLabel("Category").fill("Scriptless");
      await post(admin, main(admin).getByRole("button", { name: "Add Item" }));
      expect(await toast(main(admin), "Item is Updated").count()).toBe(1);
      expect(await admin.getByTestId("simple-items").textContent()).toContain("Scriptless");
    },
  ],
  [
    "/items-management: add, edit and delete",
    async () => {
      await sql("delete from catalogue_items"); // the demo items of the first start hold every category
      await notifyContentChanged(env.db);
      await open(admin, "/items-management");
      await post(admin, main(admin).getByRole("button", { name: "+ Add New Item" }));
      let modal = admin.getByTestId("item-modal");
      expect(await modal.isVisible()).toBe(true);
      await modal.getByLabel("Item Name").fill("Plain Leads");
      await post(admin, modal.getByRole("button", { name: "Add Item" }));
      // Refused: the modal opens again with the answer and what was typed.
      modal = admin.getByTestId("item-modal");
      expect(await fieldError(modal, "Description")).toBe("Description is required");
      expect(await modal.getByLabel("Item Name").inputValue()).toBe("Plain Leads");
      await modal.getByLabel("Description").fill("Shops that never load scripts.");
      await modal.getByLabel("Category").selectOption({ label: "VIDEO EDITING" });
      await modal.getByLabel("Guideline").fill("Keep it short.");
      await post(admin, modal.getByRole("button", { name: "Add Item" }));
      const table = admin.getByTestId("items-table");
      expect(await table.textContent()).toContain("Plain Leads");
      expect(await admin.getByTestId("item-modal").isVisible()).toBe(false);

      await post(admin, table.getByRole("button", { name: "Edit Plain Leads" }));
      modal = admin.getByTestId("item-modal");
      expect(await modal.getByLabel("Category").inputValue()).toBe("video-editing");
      await modal.getByLabel("Item Name").fill("Plainer Leads");
      await post(admin, modal.getByRole("button", { name: "Update Item" }));
      expect(await admin.getByTestId("items-table").textContent()).toContain("Plainer Leads");

      await post(admin, admin.getByTestId("items-table").getByRole("button", { name: "Delete Plainer Leads" }));
      expect(await admin.getByTestId("items-table").textContent()).not.toContain("Plainer Leads");
      expect(await sql("select 1 from catalogue_items")).toHaveLength(0);
    },
  ],
  [
    "/admin/payment-status/{id}: payment status and order status",
    async () => {
      await open(admin, `/admin/payment-status/${orderId}`);
      await post(admin, main(admin).getByRole("button", { name: "Update Payment Status" }));
      expect(await main(admin).getByRole("alert").first().textContent()).toBe("Failed to update payment status");
      await main(admin).getByLabel("Payment Status").selectOption("Paid");
      await post(admin, main(admin).getByRole("button", { name: "Update Payment Status" }));
      expect(await toast(main(admin), "Payment Status Updated Successfully!").textContent()).toBe(
        "Payment Status Updated Successfully! The membership starts when the order is set Delivered.",
      );
      await main(admin).getByLabel("Order Status").selectOption("Delivered");
      await post(admin, main(admin).getByRole("button", { name: "Update Order Status" }));
      expect(await toast(main(admin), "Order Status Updated Successfully!").textContent()).toBe(
        "Order Status Updated Successfully! Membership validity has been calculated and set!",
      );
      expect(await sql("select payment_status, order_status from orders where id = $1", [orderId])).toEqual([
        { payment_status: "Paid", order_status: "Delivered" },
      ]);
    },
  ],
  [
    "/invoice-settings, /money-settings, and the invoice as a page and a PDF (decisions 038, 072)",
    async () => {
      await open(admin, "/invoice-settings");
      const form = admin.getByTestId("invoice-settings");
      await form.getByLabel("Company number").fill("9".repeat(61));
      await post(admin, form.getByRole("button", { name: "Save details" }));
      expect(await fieldError(main(admin), "Company number")).toBe("At most 60 characters");
      expect(await form.getByLabel("Company number").inputValue()).toBe("9".repeat(61));
      await form.getByLabel("Company number").fill("SC123456");
      await post(admin, form.getByRole("button", { name: "Save details" }));
      expect(await toast(main(admin), "Invoice details are Updated").count()).toBe(1);
      // The VAT number is one of the money settings (issue 35): refused with its form, then kept as invoices print it.
      await open(admin, "/money-settings");
      const money = admin.getByTestId("money-settings");
      await money.getByLabel("VAT number").fill("GB 123");
      await post(admin, money.getByRole("button", { name: "Save currency and VAT" }));
      expect(await fieldError(main(admin), "VAT number")).toContain("A UK VAT number is GB followed by");
      await money.getByLabel("VAT number").fill("GB 123 4567 89");
      await post(admin, money.getByRole("button", { name: "Save currency and VAT" }));
      expect(await toast(main(admin), "Currency and VAT are Updated").count()).toBe(1);
      await open(admin, "/money-settings");
      expect(await money.getByLabel("VAT number").inputValue()).toBe("GB123456789");
      // The order the admin set Paid above has its invoice: from My Orders to the page, and its PDF.
      const [{ invoice_number: number }] = await sql("select invoice_number from orders where id = $1", [orderId]);
      await open(customer, "/my-order");
      await post(customer, main(customer).getByRole("link", { name: `View invoice ${number}` }));
      expect(await customer.getByTestId("invoice").textContent()).toContain("Company number SC123456 · VAT number GB");
      const href = await customer.getByTestId("invoice-pdf").getAttribute("href");
      const pdf = await customer.context().request.get(href!);
      expect(pdf.status()).toBe(200);
      expect(pdf.headers()["content-disposition"]).toBe(`attachment; filename="${number}.pdf"`);
    },
  ],
  [
    "/view/{id}: Mark Read",
    async () => {
      const [message] = await sql("select id from messages where email = 'nora@example.org'");
      await open(admin, `/view/${message.id}`);
      await post(admin, main(admin).getByRole("button", { name: "Mark Read" }));
      expect(await toast(main(admin), "Message is Read").count()).toBe(1);
      expect(await sql("select message_status from messages where id = $1", [message.id])).toEqual([
        { message_status: "Read" },
      ]);
    },
  ],
  [
    "/all-messages: Archive, and Move to inbox from Archived",
    async () => {
      const [message] = await sql("select id, subject from messages where email = 'nora@example.org'");
      await open(admin, "/all-messages");
      await post(admin, main(admin).getByRole("button", { name: `Archive: ${message.subject}` }));
      expect(await toast(main(admin), "Message archived").count()).toBe(1);
      await open(admin, "/all-messages?view=archived");
      await post(admin, main(admin).getByRole("button", { name: `Move to inbox: ${message.subject}` }));
      expect(await toast(main(admin), "Message moved back to the inbox").count()).toBe(1);
      expect(await sql("select archived_at from messages where id = $1", [message.id])).toEqual([
        { archived_at: null },
      ]);
    },
  ],
  [
    "/customers and /customers/{id}: search, give days, a note",
    async () => {
      const [who] = await sql("select id from public.user where email = $1", [CUSTOMER.email]);
      await open(admin, "/customers");
      await main(admin).getByLabel("Name, email or order number").fill(CUSTOMER.email);
      await post(admin, main(admin).getByRole("button", { name: "Search" }));
      expect(await admin.getByTestId("customers").textContent()).toContain(CUSTOMER.email);
      await open(admin, `/customers/${who.id}`);
      const grant = () => admin.getByTestId("grant-form");
      await grant().getByLabel("Days").fill("3");
      await grant().getByLabel("Reason (only the staff see it)").fill("Plain post");
      await post(admin, grant().getByRole("button", { name: "Give days" }));
      expect(await grant().getByRole("status").textContent()).toContain("Membership extended: it now runs until");
      expect(
        await sql("select package_validity from orders where user_id = $1 and payment_method = 'Gift'", [who.id]),
      ).toEqual([{ package_validity: 3 }]);
      const note = () => admin.getByTestId("note-form");
      await note().getByLabel("Only the staff see this note").fill("Plain note");
      await post(admin, note().getByRole("button", { name: "Save note" }));
      expect(await sql("select note from customer_notes where user_id = $1", [who.id])).toEqual([
        { note: "Plain note" },
      ]);
    },
  ],
  [
    "/reports: the period as links and a GET form",
    async () => {
      await open(admin, "/reports");
      await post(admin, main(admin).getByRole("link", { name: "This month" }));
      expect(await main(admin).getByRole("link", { name: "This month" }).getAttribute("aria-current")).toBe("page");
      await main(admin).getByLabel("From", { exact: true }).fill("2026-02-01");
      await main(admin).getByLabel("To", { exact: true }).fill("2026-01-01");
      await post(admin, main(admin).getByRole("button", { name: "Show" }));
      expect(await fieldError(main(admin), "To")).toBe("To must be on or after From");
      await main(admin).getByLabel("To", { exact: true }).fill("2026-03-31");
      await post(admin, main(admin).getByRole("button", { name: "Show" }));
      expect(await main(admin).getByRole("region", { name: "Revenue", exact: true }).count()).toBe(1);
    },
  ],
  [
    "/add-user",
    async () => {
      // The add form shows while the list does not hold exactly one admin user (a second one put there directly).
      await sql("insert into admin_users (user_email) values ('second-admin@example.org')");
      await sql("update public.user set email_verified = true where email = $1", [CUSTOMER.email]);
      await open(admin, "/add-user");
      await main(admin).getByLabel("Admin email").fill("nobody@example.org");
      await post(admin, main(admin).getByRole("button", { name: "Add Admin" }));
      expect(await fieldError(main(admin), "Admin email")).toBe("No account with a confirmed email has this address.");
      await main(admin).getByLabel("Admin email").fill(CUSTOMER.email);
      await post(admin, main(admin).getByRole("button", { name: "Add Admin" }));
      // The service's own refusal (one admin user at most) comes back the same way, with its status.
      expect(await main(admin).getByRole("alert").textContent()).toBe(
        "An admin user already exists: edit it instead, or invite staff on the users screen.",
      );
      expect(await main(admin).getByLabel("Admin email").inputValue()).toBe(CUSTOMER.email);
    },
  ],
  [
    "/account/delete",
    async () => {
      const who = { email: "plain-delete@example.org", password: "plain-delete-1" };
      await signUp(env.server, who.email, { password: who.password });
      const page = await noScript();
      await open(page, "/login");
      await main(page).getByLabel("Email", { exact: true }).fill(who.email);
      await main(page).getByLabel("Password", { exact: true }).fill(who.password);
      await post(page, main(page).getByRole("button", { name: "Login" }));
      await open(page, "/account/delete");
      await main(page).getByLabel("Current password").fill("not-my-password");
      await post(page, main(page).getByRole("button", { name: "Delete my account" }));
      expect(await fieldError(main(page), "Current password")).toBe(DELETE_MESSAGES.passwordWrong);
      await main(page).getByLabel("Current password").fill(who.password);
      await post(page, main(page).getByRole("button", { name: "Delete my account" }));
      expect(new URL(page.url()).pathname).toBe("/account/deleted");
      expect(await sql("select count(*)::int as n from public.user where email = $1", [who.email])).toEqual([{ n: 0 }]);
      await page.goto("/account/data");
      expect(new URL(page.url()).pathname).toBe("/login");
      await page.context().close();
    },
  ],
  [
    "/customers/{id}/delete",
    async () => {
      await signUp(env.server, "plain-erase@example.org");
      const [who] = await sql("select id from public.user where email = 'plain-erase@example.org'");
      await open(admin, `/customers/${who.id}/delete`);
      await post(admin, main(admin).getByRole("button", { name: "Erase this customer" }));
      expect(await main(admin).getByRole("status").textContent()).toContain("The customer's data has been erased.");
      expect(await sql("select count(*)::int as n from public.user where email = 'plain-erase@example.org'")).toEqual([
        { n: 0 },
      ]);
    },
  ],
  [
    "/account, /account/password, /account/sessions: name, email change, password, sessions",
    async () => {
      const who = { email: "plain-account@example.org", password: "plain-account-1" };
      await signUp(env.server, who.email, { password: who.password });
      const elsewhere = await signIn(env.server, who.email, who.password);
      const page = await noScript();
      await open(page, "/login");
      await main(page).getByLabel("Email", { exact: true }).fill(who.email);
      await main(page).getByLabel("Password", { exact: true }).fill(who.password);
      await post(page, main(page).getByRole("button", { name: "Login" }));

      await open(page, "/account");
      await main(page).getByLabel("Name", { exact: true }).fill("Plain Account");
      await post(page, main(page).getByRole("button", { name: "Save name" }));
      expect(await main(page).getByRole("status").textContent()).toBe("Your name is saved.");
      expect(await sql("select name from public.user where email = $1", [who.email])).toEqual([
        { name: "Plain Account" },
      ]);
      await main(page).getByLabel("New email").fill("not-an-email");
      await post(page, main(page).getByRole("button", { name: "Send confirmation link" }));
      expect(await fieldError(main(page), "New email")).toBe("Provide a Valid Email");
      expect(await main(page).getByLabel("New email").inputValue()).toBe("not-an-email");
      await main(page).getByLabel("New email").fill("plain-account-new@example.org");
      await post(page, main(page).getByRole("button", { name: "Send confirmation link" }));
      expect(await main(page).getByRole("status").textContent()).toContain(
        "We sent a link to plain-account-new@example.org.",
      );

      // Automatic renewal: a page to read, without a script (this customer has no subscription).
      await open(page, "/account/subscriptions");
      expect(await page.getByTestId("no-subscriptions").count()).toBe(1);

      await open(page, "/account/sessions");
      expect(await page.getByTestId("session").count()).toBe(3);
      await post(
        page,
        page.locator('[data-testid="session"]:not([data-current])').first().getByRole("button", { name: "Sign out" }),
      );
      expect(await main(page).getByRole("status").first().textContent()).toBe("That device is signed out.");
      expect(await page.getByTestId("session").count()).toBe(2);
      await post(page, main(page).getByRole("button", { name: "Sign out of all other sessions" }));
      expect(await main(page).getByRole("status").first().textContent()).toBe("1 other device is signed out.");
      expect(await page.getByTestId("session").count()).toBe(1);
      expect((await fetch(env.server.url + "/api/me", { headers: { cookie: elsewhere.header() } })).status).toBe(401);

      await open(page, "/account/password");
      await main(page).getByLabel("Current password").fill("not-the-password-1");
      await main(page).getByLabel("New password").fill("plain-account-2-new");
      await post(page, main(page).getByRole("button", { name: "Change password" }));
      expect(await fieldError(main(page), "Current password")).toBe("This is not your current password.");
      expect(await main(page).getByLabel("Current password").inputValue()).toBe("");
      await main(page).getByLabel("Current password").fill(who.password);
      await main(page).getByLabel("New password").fill("plain-account-2-new");
      await post(page, main(page).getByRole("button", { name: "Change password" }));
      expect(new URL(page.url()).search).toBe("?changed=1");
      expect(await main(page).getByRole("status").textContent()).toContain("Your password is changed.");
      await page.context().close();
    },
  ],
  [
    "/discount-codes",
    async () => {
      await open(admin, "/discount-codes");
      const add = () => main(admin).getByTestId("discount-add");
      await add().getByLabel("Code").fill("plain10");
      await add().getByLabel("Kind").selectOption("percent");
      await add().getByLabel("Value").fill("150");
      await add().getByLabel("Once per customer").check();
      await post(admin, add().getByRole("button", { name: "Add discount code" }));
      expect(await fieldError(add(), "Value")).toBe("A percentage must be at most 100");
      // What was typed comes back with the refusal.
      expect(await add().getByLabel("Code").inputValue()).toBe("plain10");
      expect(await add().getByLabel("Value").inputValue()).toBe("150");
      expect(await add().getByLabel("Once per customer").isChecked()).toBe(true);
      await add().getByLabel("Value").fill("10");
      await post(admin, add().getByRole("button", { name: "Add discount code" }));
      expect(await toast(admin, "Discount code is added").count()).toBeGreaterThan(0);
      expect(
        await sql("select code, value::text, once_per_customer from discount_codes where code = 'PLAIN10'"),
      ).toEqual([{ code: "PLAIN10", value: "10.00", once_per_customer: true }]);
    },
  ],
  [
    "/subscriptions/{id}/cancel",
    async () => {
      // The customer's order as a PayPal subscription (the row its sign-up makes); a customer called to cancel it.
      const [{ user_id: userId }] = await sql("select user_id from orders where id = $1", [orderId]);
      const [{ id }] = await sql(
        "insert into subscriptions (subscr_id, order_id, user_id, signed_up_at) values ('I-PLAIN', $1, $2, now()) returning id",
        [orderId, userId],
      );
      await open(admin, `/customers/${userId}`);
      await post(admin, main(admin).getByRole("link", { name: /^Mark cancelled/ }));
      expect(new URL(admin.url()).pathname).toBe(`/subscriptions/${id}/cancel`);
      await post(admin, main(admin).getByRole("button", { name: "Mark cancelled" }));
      expect(await main(admin).getByRole("status").textContent()).toContain("Subscription marked cancelled.");
      expect(await sql("select status from subscriptions where id = $1", [id])).toEqual([{ status: "cancelled" }]);
    },
  ],
  [
    "Sign Out",
    async () => {
      // A cached public page (the customer's copy) leads a signed-in visitor to the dashboard without a script.
      await open(customer, "/pricing");
      await open(customer, "/pricing");
      await post(customer, customer.getByTestId("header-account").getByRole("link", { name: "Dashboard" }));
      expect(new URL(customer.url()).pathname).toBe("/dashboard");
      await post(customer, main(customer).getByRole("button", { name: "Sign Out" }));
      expect(new URL(customer.url()).pathname).toBe("/");
      await customer.goto("/dashboard");
      expect(new URL(customer.url()).pathname).toBe("/login");
      await open(customer, "/pricing");
      expect(await customer.getByTestId("header-account").getByRole("link").allTextContents()).toEqual(["Login"]);
    },
  ],
];

describe("every page form without JavaScript", () => {
  for (const [form, run] of cases) it(form, run);
});
