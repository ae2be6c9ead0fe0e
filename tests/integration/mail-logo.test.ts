import sharp from "sharp";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { sampleData } from "#server/mail/samples.ts";
import { demoContent } from "#server/seed/demo-content.ts";
import { signInAsAdmin } from "../support/accounts";
import { startTestApp, type TestApp } from "../support/app";
import { CookieJar } from "../support/session";

/**
 * Issue 28, part 4: the mails' logo is a PNG drawn from the site's logo (Gmail and Outlook do not show an SVG), with
 * its width and height, at an address the site answers with image/png.
 */
let app: TestApp;
const admin = new CookieJar();
beforeAll(async () => {
  app = await startTestApp({ ADMIN_EMAIL: "boss@example.org", ADMIN_PASSWORD: "boss-pass-12" });
  await app.services.content.insertMany(demoContent);
  await app.services.accounts.ensureFirstAdmin();
  await signInAsAdmin(app, { jar: admin });
});
afterAll(() => app?.close());

async function mailLogo() {
  const samples = sampleData(new Date(), app.config.publicUrl);
  const mail = await app.services.mails.render("verifyEmail", samples.verifyEmail, "ana@example.org");
  const img = /<img[^>]*>/.exec(mail.html)?.[0] ?? "";
  const attr = (name: string) => new RegExp(`\\b${name}="([^"]*)"`).exec(img)?.[1];
  return { img, src: attr("src"), width: Number(attr("width")), height: Number(attr("height")) };
}

describe("the mails' logo", () => {
  it("is a PNG of the site's logo, with its width and height, that the site serves as image/png", async () => {
    const { src, width, height } = await mailLogo();
    expect(src).toMatch(new RegExp(`^${app.config.publicUrl}/mail/logo-[0-9a-f]{16}\\.png$`));
    // The seeded logo (public/images/logo.svg, 180 × 48) drawn 36 px tall.
    expect({ width, height }).toEqual({ width: 135, height: 36 });

    const res = await app.request(new URL(src!).pathname);
    expect(res.status).toBe(200);
    expect(res.headers.get("content-type")).toBe("image/png");
    expect(res.headers.get("cache-control")).toBe("public, max-age=31536000, immutable");
    const meta = await sharp(Buffer.from(await res.arrayBuffer())).metadata();
    expect({ format: meta.format, width: meta.width, height: meta.height }).toEqual({
      format: "png",
      width: 2 * width,
      height: 2 * height,
    });
    const again = await app.request(new URL(src!).pathname, { headers: { "if-none-match": res.headers.get("etag")! } });
    expect(again.status).toBe(304);
  });

  it("follows the site's logo: a new logo, a new address; an old address shows today's logo", async () => {
    const before = await mailLogo();
    const [logo] = (await (await app.request("/api/logo")).json()) as { _id: string }[];
    const put = await app.request(`/api/logo/${logo!._id}`, {
      method: "PUT",
      json: { logo: "/images/contact-mail.svg" },
      jar: admin,
    });
    expect(put.status).toBe(200);
    await expect.poll(async () => (await mailLogo()).src).not.toBe(before.src);
    const after = await mailLogo();
    expect(after.src).toMatch(/\/mail\/logo-[0-9a-f]{16}\.png$/);
    expect(after.height).toBe(36);

    const old = await app.request(new URL(before.src!).pathname);
    expect(old.status).toBe(200);
    expect(old.headers.get("content-type")).toBe("image/png");
    expect(old.headers.get("cache-control")).toBe("public, max-age=3600");
  });

  it("is left out for a logo on another site: the mail shows the agency's name", async () => {
    const [logo] = (await (await app.request("/api/logo")).json()) as { _id: string }[];
    const put = await app.request(`/api/logo/${logo!._id}`, {
      method: "PUT",
      json: { logo: "https://elsewhere.example/logo.svg" },
      jar: admin,
    });
    expect(put.status).toBe(200);
    await expect.poll(async () => (await mailLogo()).img).toBe("");
    expect((await app.request("/mail/logo-0000000000000000.png")).status).toBe(404);
  });
});
