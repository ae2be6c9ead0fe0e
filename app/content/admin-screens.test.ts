import { describe, expect, it } from "vitest";
import { ADMIN_SCREENS, editFor, editHref, screenFor } from "./admin-screens";
import { getSection } from "./registry";

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
