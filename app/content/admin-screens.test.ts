import { describe, expect, it } from "vitest";
import {
  ADMIN_AREAS,
  BACK_OFFICE_GROUPS,
  ADMIN_SCREENS,
  areaHref,
  DASHBOARD_CARDS,
  editFor,
  editHref,
  HUB_GROUPS,
  isAreaActive,
  screenFor,
} from "./admin-screens";
import { getSection, recordTitle } from "#domain/registry.ts";

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

describe("the back office's navigation", () => {
  const area = (label: string) => ADMIN_AREAS.find((a) => a.label === label)!;
  it("declares every area once, the orders desk's to-deliver view with its badge", () => {
    expect(ADMIN_AREAS.map(areaHref)).toContain("/total-orders?view=to-deliver");
    expect(area("To deliver").badge).toBe("toDeliver");
    expect(new Set(ADMIN_AREAS.map(areaHref)).size).toBe(ADMIN_AREAS.length);
  });
  it("marks one entry active: a view, or its path without the view", () => {
    const active = (pathname: string, search = "") =>
      ADMIN_AREAS.filter((a) => isAreaActive(a, pathname, search)).map((a) => a.label);
    expect(active("/admin")).toEqual(["Dashboard"]);
    expect(active("/admin/payment-status/x")).toEqual([]);
    expect(active("/total-orders", "?page=2&payment=Paid")).toEqual(["Orders"]);
    expect(active("/total-orders", "?view=to-deliver&page=2")).toEqual(["To deliver"]);
    expect(active("/activity/")).toEqual(["Activity log"]);
    expect(active("/today")).toEqual(["Today"]);
    // A longer entry under another's path is the active one there (issue 37: the imports under the customers).
    expect(active("/customers/import/x")).toEqual(["Import members"]);
    expect(active("/customers/abc")).toEqual(["Customers"]);
  });
  it("lists the entries group by group, in the order of the groups, each group once", () => {
    const groups = ADMIN_AREAS.map((a) => a.group).filter((g, i, all) => g !== all[i - 1]);
    expect(groups).toEqual([...BACK_OFFICE_GROUPS]);
    expect(ADMIN_AREAS.find((a) => a.badge === "unread")?.to).toBe("/all-messages");
    expect(ADMIN_AREAS.map((a) => a.to)).toEqual(
      expect.arrayContaining(["/today", "/customers", "/reports", "/trash"]),
    );
  });
});
