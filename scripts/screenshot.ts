// Screenshots of pages at desktop (1280) and phone (390) widths, for looking at what we built.
// Usage: npx tsx scripts/screenshot.ts http://localhost:3000 / /service/ /pricing [--out dir] [--full] [--login email:password]
//        [--widths 1024,390] (default 1280 and 390)
import { mkdirSync } from "node:fs";
import path from "node:path";
import { DESKTOP, launchBrowser, PHONE } from "#tests/support/browser.ts";

const args = process.argv.slice(2);
const base = args.shift();
const outIndex = args.indexOf("--out");
const out = outIndex >= 0 ? args.splice(outIndex, 2)[1]! : "test-results/screenshots";
const full = args.includes("--full");
const loginIndex = args.indexOf("--login");
const login = loginIndex >= 0 ? args.splice(loginIndex, 2)[1] : undefined;
const widthsIndex = args.indexOf("--widths");
const widths = widthsIndex >= 0 ? args.splice(widthsIndex, 2)[1]!.split(",").map(Number) : undefined;
const paths = args.filter((a) => !a.startsWith("--"));
if (!base || paths.length === 0) {
  console.error("Usage: npx tsx scripts/screenshot.ts BASE_URL PATH... [--out DIR] [--full]");
  process.exit(2);
}
mkdirSync(out, { recursive: true });

const browser = await launchBrowser();
const viewports = widths
  ? widths.map((width) => ({ width, height: width < 768 ? PHONE.height : DESKTOP.height }))
  : [DESKTOP, PHONE];
for (const viewport of viewports) {
  const page = await browser.newPage({ viewport });
  if (login) {
    const [email, password] = login.split(":");
    await page.goto(base + "/login");
    await page.getByRole("main").getByLabel("Email", { exact: true }).fill(email!);
    await page.getByRole("main").getByLabel("Password", { exact: true }).fill(password!);
    await page.getByRole("main").getByRole("button", { name: "Login" }).click();
    await page.waitForURL((u) => u.pathname !== "/login");
  }
  for (const p of paths) {
    await page.goto(base + p, { waitUntil: "networkidle" });
    if (full) {
      // Lazy images load only when scrolled into view.
      await page.evaluate(async () => {
        for (let y = 0; y < document.body.scrollHeight; y += 400) {
          window.scrollTo(0, y);
          await new Promise((r) => setTimeout(r, 40));
        }
        window.scrollTo(0, 0);
      });
      await page.waitForLoadState("networkidle");
    }
    const name = p.replace(/[^a-z0-9]+/gi, "_").replace(/^_|_$/g, "") || "home";
    const file = path.join(out, `${name}-${viewport.width}.png`);
    await page.screenshot({ path: file, fullPage: full });
    console.log(file);
  }
  await page.close();
}
await browser.close();
