import { describe, expect, it } from "vitest";
import { contentSecurityPolicy, inlineScriptHashes } from "./security";

const directive = (policy: string, name: string) =>
  policy
    .split("; ")
    .find((d) => d.startsWith(`${name} `))
    ?.split(" ")
    .slice(1);

describe("inlineScriptHashes", () => {
  it("hashes the exact text of each inline script, in the form CSP expects", () => {
    expect(inlineScriptHashes("<p>x</p><script>alert(1)</script>")).toEqual([
      "sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=",
    ]);
  });

  it("covers module scripts and attributes, skips scripts with a src and empty ones, and lists a script once", () => {
    const html = [
      '<script type="module" async="">import "/a.js";</script>',
      '<script src="/assets/x.js"></script>',
      '<script type="module" src="/assets/y.js" async></script>',
      "<script></script>",
      "<SCRIPT>alert(1)</SCRIPT >",
      "<script>alert(1)</script>",
    ].join("\n");
    const hashes = inlineScriptHashes(Buffer.from(html));
    expect(hashes).toHaveLength(2);
    expect(hashes).toContain("sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=");
  });

  it("leaves out JSON data blocks (structured data), which never run, and still hashes every other type", () => {
    const html = [
      '<script type="application/ld+json">{"@type":"FAQPage"}</script>',
      "<script type='application/json'>{}</script>",
      '<script type="importmap">{"imports":{}}</script>',
      '<script type="text/javascript">alert(1)</script>',
    ].join("\n");
    const hashes = inlineScriptHashes(html);
    expect(hashes).toHaveLength(2);
    expect(hashes).toContain("sha256-bhHHL3z2vDgxUt0W3dWQOrprscmda2Y5pLsLg4GF+pI=");
  });

  it("hashes UTF-8 text, as the browser does", () => {
    const [a] = inlineScriptHashes("<script>window.x = 'café';</script>");
    const [b] = inlineScriptHashes("<script>window.x = 'cafe';</script>");
    expect(a).not.toBe(b);
    expect(inlineScriptHashes(Buffer.from("<script>window.x = 'café';</script>"))).toEqual([a]);
  });

  it("finds nothing in a page without inline scripts", () => {
    expect(inlineScriptHashes("<html><body><h1>Hi</h1></body></html>")).toEqual([]);
  });
});

describe("contentSecurityPolicy", () => {
  it("never allows inline scripts wholesale: only our origin and the listed hashes", () => {
    expect(directive(contentSecurityPolicy(), "script-src")).toEqual(["'self'"]);
    expect(directive(contentSecurityPolicy(["sha256-abc=", "sha256-def="]), "script-src")).toEqual([
      "'self'",
      "'sha256-abc='",
      "'sha256-def='",
    ]);
  });

  it("keeps frames, forms and plugins to what the site uses", () => {
    const policy = contentSecurityPolicy();
    expect(directive(policy, "object-src")).toEqual(["'none'"]);
    expect(directive(policy, "frame-ancestors")).toEqual(["'self'"]);
    expect(directive(policy, "form-action")).toEqual([
      "'self'",
      "https://www.paypal.com",
      "https://www.sandbox.paypal.com",
    ]);
  });
});

describe("images from MEDIA_PUBLIC_URL (decision 081)", () => {
  it("its origin joins img-src; without one img-src stays as it was", () => {
    expect(directive(contentSecurityPolicy([], false, ["http://127.0.0.1:9000"]), "img-src")).toEqual([
      "'self'",
      "https:",
      "data:",
      "http://127.0.0.1:9000",
    ]);
    expect(directive(contentSecurityPolicy(), "img-src")).toEqual(["'self'", "https:", "data:"]);
  });
});
