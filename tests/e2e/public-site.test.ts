import { readFileSync } from "node:fs";
import path from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { SectionRecord, SectionType } from "#domain/registry.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { attributeNow, newPage, PHONE } from "../support/browser";
import { notifyContentChanged, startE2E, type E2EEnv } from "../support/e2e";
import { heading, toast } from "../support/pages";
import { ROOT } from "../support/server";

/** A poll that loads a page each time: one load alone may take longer than the default second on a busy machine. */
const POLL_PAGES = { timeout: 15_000, interval: 200 };

let env: E2EEnv;
beforeAll(async () => {
  env = await startE2E();
});
afterAll(() => env?.close());

const seeded = <T extends SectionType>(type: T) =>
  demoContent.filter((r) => r.type === type).map((r) => r.data) as unknown as Omit<SectionRecord<T>, "_id">[];

describe("the landing page", () => {
  it("server-renders every section from the seeded content, in the spec's order", async () => {
    const html = await (await fetch(env.server.url + "/")).text();
    const [banner] = seeded("banner");
    expect(html).toContain(banner!.bannerHeading);
    expect(html).toContain("Best Pricing For Business");
    for (const p of seeded("pricing")) expect(html).toContain(p.packageName);
    expect(html).toContain(`<link rel="canonical" href="${env.server.url}/"`);
    expect(html).toContain('property="og:title"');
    expect(html).toMatch(/<meta name="description" content="[^"]{20,}"/);

    const page = await newPage(env.browser, env.server.url);
    await page.goto("/");
    const text = (s: string) => page.locator(s).first();
    await expect.poll(() => text("h1").textContent()).toBe(banner!.bannerHeading);

    // Sections in order: hero, services, about, pricing, testimonials, call to action, contact.
    const order = await page.evaluate(() =>
      ["service-sec", "who-sec", "pricing-sec", "testi-sec", "contact-sec"].map(
        (id) => document.getElementById(id)?.getBoundingClientRect().top ?? -1,
      ),
    );
    expect(order.every((y) => y > 0)).toBe(true);
    expect([...order].sort((a, b) => a - b)).toEqual(order);

    const body = await page.locator("main").textContent();
    const [heading] = seeded("serviceHeading");
    expect(body).toContain(heading!.serviceHeading);
    for (const s of seeded("serviceItem")) expect(body).toContain(s.serviceTitle);
    for (const a of seeded("about")) expect(body).toContain(a.aboutHeading);
    for (const t of seeded("testimonial")) expect(body).toContain(t.personName);
    const [action] = seeded("action");
    expect(body).toContain(action!.heading);
    expect(body).toContain("Get Every Single Needs");
    expect(body).toContain("Let's Talk For Support");
    expect(body).toContain("Send Us Message");
    // Shown as the spec writes them (innerText applies CSS text-transform; textContent does not).
    expect(await page.getByText("Get Every Single Needs", { exact: true }).innerText()).toBe("Get Every Single Needs");
    expect(await page.getByText("Popular", { exact: true }).innerText()).toBe("Popular");
    // The hero has one button.
    expect(
      await page
        .locator("section", { has: page.locator("h1") })
        .first()
        .getByRole("link")
        .count(),
    ).toBe(1);

    // About blocks alternate; pricing cards link to their order page; Premium is the popular one.
    expect(
      await page
        .locator("[data-testid=about-block]")
        .evaluateAll((els) => els.map((e) => e.getAttribute("data-reversed"))),
    ).toEqual(["false", "true"]);
    const cards = page.locator("[data-testid=pricing-card]");
    expect(await cards.count()).toBe(3);
    for (let i = 0; i < 3; i++) {
      const card = cards.nth(i);
      const name = (await card.locator("h3").textContent())!;
      const points = await card.locator("ul li").count();
      expect(points).toBe(name === "Premium" ? 10 : 7);
      expect(await card.getByText("Popular").count()).toBe(name === "Premium" ? 1 : 0);
      expect(await card.locator("a").getAttribute("href")).toMatch(/^\/order-now\/[0-9a-f-]{36}$/);
    }

    // Header and footer.
    const nav = page.getByRole("navigation", { name: "Main" });
    for (const label of ["Home", "Our Services", "Why Choose Us", "Testimonials", "Contact Us"]) {
      await expect.poll(() => nav.getByRole("link", { name: label }).count()).toBe(1);
    }
    expect(await page.getByTestId("header-account").getByRole("link", { name: "Login" }).count()).toBe(1);
    expect(await page.getByTestId("header-account").getByRole("link", { name: "Admin" }).count()).toBe(0);
    const footer = await page.locator("footer").textContent();
    const [address] = seeded("footerAddress");
    expect(footer).toContain(address!.Phone);
    expect(footer).toContain(address!.footerEmail);
    expect(footer).toContain(seeded("copyright")[0]!.copyrightText);
    expect(footer).toContain(seeded("footerAbout")[0]!.aboutFooterText);
    await page.context().close();
  });

  it("a banner with a video link shows a player instead of the image", async () => {
    const page = await newPage(env.browser, env.server.url);
    await page.goto("/");
    expect(await page.locator("[data-testid=hero-image]").count()).toBe(1);
    expect(await page.locator("[data-testid=hero-video]").count()).toBe(0);

    await env.db.pool.query(
      `update content_entries set data = jsonb_set(data, '{bannerImage}', '"https://youtu.be/dQw4w9WgXcQ"') where type = 'banner'`,
    );
    await notifyContentChanged(env.db);
    await expect
      .poll(async () => {
        await page.goto("/");
        return attributeNow(page.locator("[data-testid=hero-video]"), "src");
      }, POLL_PAGES)
      .toBe("https://www.youtube-nocookie.com/embed/dQw4w9WgXcQ?rel=0");
    expect(await page.locator("[data-testid=hero-image]").count()).toBe(0);
    await page.context().close();
  });
});

describe("the mobile menu at 390 px", () => {
  it("is a native popover, without any script: opens, closes by its button, Escape and a tap outside; links work", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport: PHONE });
    await page.goto("/pricing");
    expect(await page.locator("script[type=module]").count()).toBe(0);
    const menu = page.locator("#mobile-menu[popover]");
    const open = page.getByRole("button", { name: "Open menu" });
    expect(await page.getByRole("navigation", { name: "Main" }).isVisible()).toBe(false);

    await open.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    const box = await menu.boundingBox();
    expect(box!.width).toBeLessThanOrEqual(400);
    expect(box!.width).toBeCloseTo(390 * 0.9, 0);
    expect(box!.x + box!.width).toBeCloseTo(390, 0);
    await page.getByRole("button", { name: "Close menu" }).click();
    await expect.poll(() => menu.isVisible()).toBe(false);

    await open.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    await page.keyboard.press("Escape");
    await expect.poll(() => menu.isVisible()).toBe(false);

    await open.click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    await page.mouse.click(10, 400); // outside, left of the 90%-wide panel
    await expect.poll(() => menu.isVisible()).toBe(false);

    // A link loads its page (a new document: the menu is closed there).
    await open.click();
    await menu.getByRole("link", { name: "Testimonials" }).click();
    await page.waitForURL((url) => url.pathname === "/" && url.hash === "#testi-sec");
    await expect.poll(() => menu.isVisible()).toBe(false);
    expect(await page.locator("#testi-sec").isVisible()).toBe(true);
    await page.context().close();
  });

  it("closes after a navigation in the browser where React runs (the login page)", async () => {
    const page = await newPage(env.browser, env.server.url, { viewport: PHONE });
    await page.goto("/login");
    expect(await page.locator("html[data-hydrated]").count()).toBe(1);
    const menu = page.locator("#mobile-menu[popover]");
    await page.getByRole("button", { name: "Open menu" }).click();
    await expect.poll(() => menu.isVisible()).toBe(true);
    await menu.getByRole("link", { name: "Home" }).click();
    await page.waitForURL("/");
    await expect.poll(() => menu.isVisible()).toBe(false);
    await page.context().close();
  });
});

describe("visitor forms", () => {
  // The public pages run no React (app/lib/hydration.ts): their one small script posts a form in place and shows the
  // server's answer, the spec's text, in the form (what used to be a toast); tests/e2e/public-motion.test.ts and the
  // no-JavaScript suite cover the plain post.
  it("a contact message is stored UnRead and the visitor gets the success text at the form", async () => {
    const page = await newPage(env.browser, env.server.url);
    await page.goto("/");
    const form = page.locator("#contact-sec form");
    // An invalid email keeps everything typed and says what is wrong.
    await form.getByLabel("Full Name").fill("Jonas Berg");
    await form.getByLabel("Email").fill("jonas-at-example");
    await form.getByLabel("Subject").fill("Office lighting");
    await form.getByLabel("Message").fill("Could you look at the lighting plan for our new office?");
    await form.getByRole("button", { name: "Send Message" }).click();
    const email = form.getByLabel("Email");
    await expect.poll(() => email.getAttribute("aria-invalid")).toBe("true");
    expect(await page.locator(`[id="${await email.getAttribute("aria-describedby")}"]`).textContent()).toBe(
      "Please enter a valid email address",
    );
    expect(await form.getByLabel("Message").inputValue()).toBe(
      "Could you look at the lighting plan for our new office?",
    );

    await email.fill("jonas@example.org");
    await form.getByRole("button", { name: "Send Message" }).click();
    await expect.poll(() => toast(form, "Message is Updated").count()).toBe(1);
    expect(new URL(page.url()).pathname).toBe("/");
    expect(await form.getByLabel("Full Name").inputValue()).toBe("");

    const { rows } = await env.db.pool.query("select name, email, subject, message_status from messages");
    expect(rows).toEqual([
      { name: "Jonas Berg", email: "jonas@example.org", subject: "Office lighting", message_status: "UnRead" },
    ]);
    await page.context().close();
  });

  it("a newsletter signup is stored once", async () => {
    const page = await newPage(env.browser, env.server.url);
    for (let i = 0; i < 2; i++) {
      await page.goto("/pricing");
      await page.locator("footer").getByLabel("Email address").fill("reader@example.org");
      await page.locator("footer").getByRole("button", { name: "Subscribe" }).click();
      await expect.poll(() => toast(page.locator("footer"), "Subscribers is Updated").count()).toBe(1);
      expect(new URL(page.url()).pathname).toBe("/pricing");
    }
    const { rows } = await env.db.pool.query("select subemail from subscribers");
    expect(rows).toEqual([{ subemail: "reader@example.org" }]);
    await page.context().close();
  });
});

describe("the other public pages", () => {
  it("/service/, /pricing, /contact, /contact-us and /thanks render with their content and titles", async () => {
    const page = await newPage(env.browser, env.server.url);
    await page.goto("/service/");
    expect(await heading(page).textContent()).toBe("Service Page");
    const service = await page.locator("main").textContent();
    expect(service).toContain(seeded("counter")[0]!.happyClientsText);
    expect(service).toContain(seeded("workStep")[0]!.stepTitle);
    expect(service).toContain(seeded("featureItem")[0]!.FeaturesText);
    expect(service).toContain(seeded("teamMember")[0]!.teamMemberName);
    expect(
      await page
        .getByRole("progressbar")
        .evaluateAll((bars) => bars.slice(0, 3).map((b) => b.getAttribute("aria-valuenow"))),
    ).toEqual(["85", "65", "79"]);
    // The service page also shows each item's name, and its image once the admin sets one; the landing page does not.
    const names = await page.getByTestId("service-name").allTextContents();
    expect(names).toEqual(seeded("serviceItem").map((s) => s.serviceName));
    await env.db.pool.query(
      `update content_entries set data = data || '{"serviceImg": "/images/about-living.svg"}'
        where id = (select id from content_entries where type = 'serviceItem' order by position limit 1)`,
    );
    await notifyContentChanged(env.db);
    await expect
      .poll(async () => {
        await page.goto("/service/");
        return attributeNow(page.getByTestId("service-image"), "src");
      }, POLL_PAGES)
      // A shipped image is drawn from its hashed, year-cached copy (scripts/hash-images.mjs).
      .toBe(
        JSON.parse(readFileSync(path.join(ROOT, "build/client/static-images.json"), "utf8"))[
          "/images/about-living.svg"
        ],
      );
    await page.goto("/");
    expect(await page.getByTestId("service-name").count()).toBe(0);

    await page.goto("/pricing");
    const pricing = await page.locator("main").textContent();
    expect(pricing).toContain("Best Pricing For Business");
    expect(pricing).toContain(seeded("faqItem")[0]!.accodingTitle);

    for (const path of ["/contact", "/contact-us"]) {
      await page.goto(path);
      expect(await page.locator("#contact-sec h2").textContent()).toBe("Send Us Message");
      expect(await page.locator("main").textContent()).toContain(seeded("contactBlock")[0]!.contactTitle);
    }
    await page.goto("/thanks");
    const thanks = await page.locator("main").textContent();
    expect(thanks).toContain("Thank You !");
    expect(thanks).toContain("We've send the link to your inbox");
    expect(await page.getByRole("link", { name: "Back Home" }).getAttribute("href")).toBe("/");
    await page.context().close();
  });

  it("/privacy and /terms show the documents from the content, linked from the footer and listed in the sitemap; markup typed into them stays text", async () => {
    const page = await newPage(env.browser, env.server.url);
    for (const [path, type] of [
      ["/privacy", "privacy"],
      ["/terms", "terms"],
    ] as const) {
      await page.goto("/");
      await page
        .locator("footer")
        .getByRole("link", { name: type === "privacy" ? "Privacy notice" : "Terms" })
        .click();
      await page.waitForURL((u) => u.pathname === path);
      const record = seeded(type)[0]!;
      expect(await heading(page).textContent()).toBe(record.documentHeading);
      const text = await page.locator("main").textContent();
      expect(text).toContain(`Last updated ${record.lastUpdated}`);
      expect(await page.locator("main h2").count()).toBeGreaterThan(3);
    }
    expect(await page.locator("main").textContent()).toContain("England and Wales");
    await page.goto("/privacy");
    expect(await page.locator("main").textContent()).toContain("Information Commissioner");
    expect(await page.locator("main li").count()).toBeGreaterThanOrEqual(5);

    await env.db.pool.query(
      `update content_entries set data = data || '{"documentText": "Intro <b>bold</b> <script>window.owned = 1</script>."}' where type = 'terms'`,
    );
    await notifyContentChanged(env.db);
    await expect
      .poll(async () => {
        await page.goto("/terms");
        return page.locator("main p").last().textContent();
      }, POLL_PAGES)
      .toBe("Intro <b>bold</b> <script>window.owned = 1</script>.");
    expect(await page.locator("main b").count()).toBe(0);
    expect(await page.evaluate(() => (window as unknown as { owned?: number }).owned)).toBeUndefined();

    const xml = await (await fetch(env.server.url + "/sitemap.xml")).text();
    expect(xml).toContain(`<loc>${env.server.url}/privacy</loc>`);
    expect(xml).toContain(`<loc>${env.server.url}/terms</loc>`);
    await page.context().close();
  });

  it("serves sitemap.xml, robots.txt, the favicon, and a 404 page for unknown addresses", async () => {
    const sitemap = await fetch(env.server.url + "/sitemap.xml");
    expect(sitemap.headers.get("content-type")).toContain("application/xml");
    const xml = await sitemap.text();
    expect(xml).toContain(`<loc>${env.server.url}/service/</loc>`);
    const robots = await (await fetch(env.server.url + "/robots.txt")).text();
    expect(robots).toContain(`Sitemap: ${env.server.url}/sitemap.xml`);
    expect(robots).toContain("Disallow: /api/");
    expect((await fetch(env.server.url + "/favicon.svg")).status).toBe(200);
    const missing = await fetch(env.server.url + "/no-such-page");
    expect(missing.status).toBe(404);
    expect(await missing.text()).toContain("Page not found");
  });
});
