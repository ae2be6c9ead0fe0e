import { describe, expect, it } from "vitest";
import fc from "fast-check";
import { articleView, variesByViewer, type ArticleViewer } from "./article-access";
import { MEMBERS_MARKER, type ArticleAccess } from "./articles";
import type { Membership } from "./membership";

const active: Membership = { state: "active", packageName: "Gold", expiresAt: new Date("2030-01-01"), daysLeft: 30 };
const viewers: Record<string, ArticleViewer> = {
  visitor: { staff: false, membership: { state: "none" } },
  waiting: { staff: false, membership: { state: "waiting", packageName: "Gold" } },
  expired: { staff: false, membership: { state: "expired" } },
  member: { staff: false, membership: active },
  admin: { staff: false, membership: { state: "admin" } },
  editor: { staff: true, membership: { state: "none" } },
};
const PUBLIC = "<p>Open to all.</p>";
const SECRET = "<p>For members: the checklist.</p>";
const split = { access: "split" as const, bodyHtml: PUBLIC + MEMBERS_MARKER + SECRET };

describe("articleView: what a viewer sees of an article", () => {
  it("gives members and staff everything, of every kind of article", () => {
    for (const who of ["member", "admin", "editor"]) {
      for (const access of ["public", "members", "split"] as ArticleAccess[]) {
        const body = PUBLIC + MEMBERS_MARKER + SECRET;
        expect(articleView({ access, bodyHtml: body }, viewers[who]!)).toEqual({ html: body, locked: null });
      }
    }
  });

  it("gives everyone a public article whole", () => {
    const article = { access: "public" as const, bodyHtml: PUBLIC };
    for (const viewer of Object.values(viewers))
      expect(articleView(article, viewer)).toEqual({ html: PUBLIC, locked: null });
  });

  it("gives visitors the part above the marker and a call to join; expired members a call to renew", () => {
    expect(articleView(split, viewers.visitor!)).toEqual({ html: PUBLIC, locked: "join" });
    expect(articleView(split, viewers.waiting!)).toEqual({ html: PUBLIC, locked: "join" });
    expect(articleView(split, viewers.expired!)).toEqual({ html: PUBLIC, locked: "renew" });
  });

  it("gives non-members nothing of a members-only body", () => {
    const article = { access: "members" as const, bodyHtml: SECRET };
    expect(articleView(article, viewers.visitor!)).toEqual({ html: "", locked: "join" });
    expect(articleView(article, viewers.expired!)).toEqual({ html: "", locked: "renew" });
  });

  it("treats a split article without a members' part as public", () => {
    const article = { access: "split" as const, bodyHtml: PUBLIC };
    expect(articleView(article, viewers.visitor!)).toEqual({ html: PUBLIC, locked: null });
    expect(variesByViewer(article)).toBe(false);
    expect(variesByViewer(split)).toBe(true);
  });

  it("never lets a byte of the members' part reach a viewer without a membership (any body, any marker place)", () => {
    fc.assert(
      fc.property(
        fc.string({ maxLength: 40 }).map((s) => s.replace(/[<>]/g, "")),
        fc.constantFrom("visitor", "waiting", "expired"),
        fc.constantFrom<ArticleAccess>("members", "split"),
        (before, who, access) => {
          const view = articleView({ access, bodyHtml: `<p>${before}</p>${MEMBERS_MARKER}${SECRET}` }, viewers[who]!);
          expect(view.html).not.toContain("checklist");
          expect(view.html).not.toContain("data-members-only");
          expect(view.locked).toBe(who === "expired" ? "renew" : "join");
        },
      ),
    );
  });
});
