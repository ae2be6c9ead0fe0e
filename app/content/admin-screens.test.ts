import { describe, expect, it } from "vitest";
import { ADMIN_SCREENS, DASHBOARD_CARDS, editFor, editHref, HUB_GROUPS, screenFor } from "./admin-screens";
import { getSection, recordTitle } from "../../domain/registry";

describe("admin content screens", () => {
  it("groups sections that share a screen", () => {
    expect(screenFor("/edit-video")!.sections.map((s) => s.type)).toEqual(["videoSection", "videoTeamMember"]);
    expect(screenFor("/edit-service/")!.sections.map((s) => s.type)).toEqual(["serviceHeading", "serviceItem"]);
    expect(screenFor("/add-pricing")!.sections.map((s) => s.type)).toEqual(["pricing"]);
    expect(screenFor("/nope")).toBeUndefined();
  });

  it("covers every screen path of spec 2", () => {
    const paths = ADMIN_SCREENS.map((s) => s.path.replace(/\/$/, ""));
    for (const p of [
      "/edit-banner",
      "/add-logo",
      "/edit-about",
      "/edit-video",
      "/edit-service",
      "/step-section",
      "/edit-work",
      "/edit-counter",
      "/update-calltoaction",
      "/add-pricing",
      "/edit-faq",
      "/edit-testimonial",
      "/edit-services-features",
      "/edit-team-text",
      "/edit-experience",
      "/add-contact",
      "/add-about-footer",
      "/add-address-footer",
      "/add-social-footer",
      "/add-copyright",
    ]) {
      expect(paths).toContain(p);
    }
  });

  it("reads the section and id from an edit address, with or without a trailing slash", () => {
    expect(editFor("/banner/abc")).toMatchObject({ section: { type: "banner" }, id: "abc" });
    expect(editFor("/edit-testimonial/abc/")).toMatchObject({ section: { type: "testimonial" }, id: "abc" });
    expect(editFor("/team-text-edit/abc")).toMatchObject({ section: { type: "teamText" }, id: "abc" });
    expect(editFor("/main-service-edit/abc")).toMatchObject({ section: { type: "serviceItem" }, id: "abc" });
    expect(editFor("/edit-work/abc")).toMatchObject({ section: { type: "workStep" }, id: "abc" });
    expect(editFor("/edit-work")).toBeUndefined();
  });

  it("builds edit links", () => {
    expect(editHref(getSection("testimonial")!, "x1")).toBe("/edit-testimonial/x1/");
  });
});

describe("cards from the registry", () => {
  it("the dashboard links to the six screens spec 2 names, with its labels", () => {
    expect(Object.fromEntries(DASHBOARD_CARDS.map((c) => [c.label, c.to]))).toEqual({
      "Pricing Setting": "/add-pricing/",
      "Call to Setting": "/update-calltoaction",
      "Testimonial Setting": "/edit-testimonial/",
      "Footer Address": "/add-address-footer/",
      "Footer Social Link": "/add-social-footer/",
      "Footer CopyRight": "/add-copyright",
    });
  });

  it("the settings hub groups every screen under the pages its sections appear on", () => {
    const listed = new Set(HUB_GROUPS.flatMap((g) => g.screens.map((s) => s.path)));
    expect([...listed].sort()).toEqual(ADMIN_SCREENS.map((s) => s.path).sort());
    const home = HUB_GROUPS.find((g) => g.page === "home")!;
    expect(home).toMatchObject({ name: "Home", path: "/" });
    expect(home.screens.map((s) => s.path).slice(0, 3)).toEqual(["/edit-banner", "/edit-service", "/edit-about"]);
    expect(home.screens[1]).toEqual({
      path: "/edit-service",
      heading: "Service Heading",
      sections: ["Service Heading", "Service Item"],
    });
    // The six cards spec 2 names for /setting are all there.
    for (const p of ["/edit-banner", "/add-logo", "/edit-about", "/edit-service", "/edit-counter", "/add-pricing/"]) {
      expect(listed.has(p), p).toBe(true);
    }
  });
});

describe("record titles", () => {
  it("use the entry's title field, else its first text field", () => {
    expect(recordTitle(getSection("about")!, { aboutText: "Tagline", aboutHeading: "Heading" })).toBe("Heading");
    expect(recordTitle(getSection("banner")!, { bannerHeading: "Hello", bannerImage: "/x.svg" })).toBe("Hello");
    expect(recordTitle(getSection("logo")!, { logo: "/logo.svg" })).toBe("");
  });
});
