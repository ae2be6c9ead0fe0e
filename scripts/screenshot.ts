// Screenshots of pages at desktop (1280) and phone (390) widths, for looking at what we built.
// Usage: npx tsx scripts/screenshot.ts http://localhost:3000 / /service/ /pricing [--out dir] [--full]
//        [--login email:password]   (signed in first, for pages behind the login)
import { mkdirSync } from "node:fs";
import path from "node:path";
import { DESKTOP, launchBrowser, PHONE } from "../tests/support/browser";

const args = process.argv.slice(2);
const base = args.shift();
const outIndex = args.indexOf("--out");
const out = outIndex >= 0 ? args.splice(outIndex, 2)[1]! : "test-results/screenshots";
const full = args.includes("--full");
const loginIndex = args.indexOf("--login");
const login = loginIndex >= 0 ? args.splice(loginIndex, 2)[1] : undefined;
const paths = args.filter((a) => !a.startsWith("--"));
if (!base || paths.length === 0) {
  console.error("Usage: npx tsx scripts/screenshot.ts BASE_URL PATH... [--out DIR] [--full] [--login EMAIL:PASSWORD]");
  process.exit(2);
}
mkdirSync(out, { recursive: true });

const browser = await launchBrowser();
for (const viewport of [DESKTOP, PHONE]) {
  const context = await browser.newContext({ viewport });
  if (login) {
    const at = login.indexOf(":");
    const res = await context.request.post(`${base}/api/auth/sign-in/email`, {
      data: { email: login.slice(0, at), password: login.slice(at + 1) },
      headers: { origin: new URL(base).origin },
    });
    if (!res.ok()) throw new Error(`Sign-in as ${login.slice(0, at)} failed: ${res.status()} ${await res.text()}`);
  }
  const page = await context.newPage();
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
  await context.close();
}
await browser.close();
