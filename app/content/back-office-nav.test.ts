import { readFileSync } from "node:fs";
import path from "node:path";
import { describe, expect, it } from "vitest";
import type { RouteConfigEntry } from "@react-router/dev/routes";
import routes from "../routes";
import { ADMIN_AREAS, areaHref } from "./back-office-nav";
import * as adminScreens from "./admin-screens";
import { sections as registry, type SectionDef } from "#domain/registry.ts";

/** Every path app/routes.ts declares, without slashes at either end. */
function declaredPaths(entries: readonly RouteConfigEntry[], prefix = ""): string[] {
  return entries.flatMap((e) => {
    const own = e.path === undefined ? prefix : [prefix, e.path].filter(Boolean).join("/");
    return [...(e.path !== undefined || e.index ? [own] : []), ...declaredPaths(e.children ?? [], own)];
  });
}
const sections: readonly SectionDef[] = registry;
const bare = (p: string) => p.replace(/^\//, "").replace(/\/$/, "");

describe("the back office's navigation and the content registry agree", () => {
  const declared = new Set(declaredPaths(routes));
  const generic = sections.filter((s) => !s.admin.own);
  const registryScreens = new Set(
    generic.flatMap((s) => [bare(s.admin.screen), bare(s.admin.edit.replace(/\/:id.*$/, ""))]),
  );

  it("admin-screens.ts hands out the navigation module's own list (one list, not a copy)", () => {
    expect(adminScreens.ADMIN_AREAS).toBe(ADMIN_AREAS);
    expect(adminScreens.areaHref).toBe(areaHref);
  });

  it("every entry leads to a page app/routes.ts declares, none to a generic content screen of the registry", () => {
    for (const area of ADMIN_AREAS) {
      expect(declared.has(bare(area.to)), area.to).toBe(true);
      expect(registryScreens.has(bare(area.to)), area.to).toBe(false);
    }
  });

  it("a registry entry with a screen of its own (the search listings) has its navigation entry, under content", () => {
    const own = sections.filter((s) => s.admin.own);
    expect(own.length).toBeGreaterThan(0);
    for (const s of own)
      expect(
        ADMIN_AREAS.find((a) => a.to === s.admin.screen),
        s.admin.screen,
      ).toMatchObject({ area: "content" });
  });

  it("the registry's screens are reached through the Site content entry, under the content area", () => {
    const hub = ADMIN_AREAS.find((a) => a.to === "/setting");
    expect(hub).toMatchObject({ label: "Site content", area: "content" });
    const onHub = new Set(adminScreens.HUB_GROUPS.flatMap((g) => g.screens.map((s) => s.path)));
    for (const screen of adminScreens.ADMIN_SCREENS) {
      expect(onHub.has(screen.path), screen.path).toBe(true);
      expect(declared.has(bare(screen.path)), screen.path).toBe(true);
    }
    for (const card of adminScreens.DASHBOARD_CARDS) expect(onHub.has(card.to), card.to).toBe(true);
  });

  it("the navigation module imports neither the registry nor the pages' content (the frame's scripts stay light)", () => {
    const source = readFileSync(path.join(import.meta.dirname, "back-office-nav.ts"), "utf8");
    const imports = [...source.matchAll(/^import .* from "([^"]+)";$/gm)].map((m) => m[1]);
    expect(imports).toEqual(["#domain/capabilities.ts"]);
    expect(source).toMatch(/^import type /m);
  });
});
