import { describe, expect, it } from "vitest";
import { getSection } from "../../../domain/registry";
import { fillLine } from "./SectionList";

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
