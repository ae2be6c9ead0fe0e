import { describe, expect, it } from "vitest";
import { getSection } from "#domain/registry.ts";
import { fillLine, recordView, sectionView } from "./section-view";

describe("admin card lines", () => {
  it("fill fields, money as a price", () => {
    const pkg = { packageName: "Basic", packagePrice: 49.5, packageValidity: 30 };
    const look = getSection("pricing")!.admin.list!;
    expect(look.look === "cards" && look.lines.map((l) => fillLine(l, pkg))).toEqual([
      "$49.50/month",
      "Valid for 30 days",
    ]);
  });
});

describe("what a content screen draws, from the registry", () => {
  it("a record's title, edit address and card lines", () => {
    const pricing = getSection("pricing")!;
    const record = { _id: "a/b", packageName: "Basic", packagePrice: 49, packageValidity: 30 };
    expect(recordView(pricing, record)).toEqual({
      record,
      title: "Basic",
      edit: "/package-edit/a%2Fb",
      lines: ["$49/month", "Valid for 30 days"],
    });
  });

  it("a section's data, full once its most records are there, without the server's rules", () => {
    const about = getSection("about")!;
    const view = sectionView(about, [{}, {}]);
    expect(view).toMatchObject({ type: "about", title: about.title, heading: about.admin.heading, full: true });
    expect(view.maxNotice).toBe(about.maxNotice);
    expect(sectionView(about, [{}]).full).toBe(false);
    expect(JSON.parse(JSON.stringify(view))).toEqual(view);
    expect(Object.keys(view)).not.toContain("api");
  });
});
