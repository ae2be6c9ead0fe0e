import { describe, expect, it } from "vitest";
import { previewPage, previewPages } from "./preview";

describe("the pages a preview draws", () => {
  it("are those that show the section, a heading where its list is, the frame's on the landing page", () => {
    expect(previewPages("banner")).toEqual(["home"]);
    expect(previewPages("serviceItem")).toEqual(["home", "service"]);
    expect(previewPages("serviceHeading")).toEqual(["home", "service"]);
    expect(previewPages("faqText")).toEqual(["pricing"]);
    expect(previewPages("contactBlock")).toEqual(["contact"]);
    expect(previewPages("terms")).toEqual(["terms"]);
    expect(previewPages("copyright")).toEqual(["home"]);
    expect(previewPages("logo")).toEqual(["home"]);
    expect(previewPages("seoHome")).toEqual([]);
  });

  it("take the page asked for only when it shows the section", () => {
    expect(previewPage("action", "service")).toBe("service");
    expect(previewPage("action", "pricing")).toBe("home");
    expect(previewPage("action", undefined)).toBe("home");
    expect(previewPage("seoHome", "home")).toBeUndefined();
  });
});
