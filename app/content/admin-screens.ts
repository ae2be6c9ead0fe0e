import { sections, type SectionDef } from "./registry";

/** Paths without their trailing slash (React Router matches both forms). */
export const routePath = (p: string) => p.replace(/^\//, "").replace(/\/$/, "");

/** The back office's content screens: each screen path with the sections it shows, in registry order. */
export const ADMIN_SCREENS: { path: string; sections: SectionDef[] }[] = [
  ...new Set(sections.map((s) => s.admin.screen)),
].map((path) => ({
  path,
  sections: sections.filter((s) => s.admin.screen === path),
}));

/** Extra edit addresses the spec names for a section (spec 2: /main-service-edit/{id} edits a service item too). */
export const EDIT_ALIASES: { path: string; type: string }[] = [{ path: "/main-service-edit/:id", type: "serviceItem" }];

export function screenFor(pathname: string): { path: string; sections: SectionDef[] } | undefined {
  const p = routePath(pathname);
  return ADMIN_SCREENS.find((s) => routePath(s.path) === p);
}

/** The section and record id an edit address names (e.g. /banner/abc → banner, abc). */
export function editFor(pathname: string): { section: SectionDef; id: string } | undefined {
  const p = routePath(pathname);
  const candidates = [
    ...sections.map((s) => ({ path: s.admin.edit, section: s })),
    ...EDIT_ALIASES.map((a) => ({ path: a.path, section: sections.find((s) => s.type === a.type)! })),
  ];
  for (const c of candidates) {
    const pattern = new RegExp(`^${routePath(c.path).replace(":id", "([^/]+)")}$`);
    const m = pattern.exec(p);
    if (m) return { section: c.section, id: decodeURIComponent(m[1]!) };
  }
  return undefined;
}

/** The address of a record's edit screen. */
export const editHref = (section: SectionDef, id: string) => section.admin.edit.replace(":id", encodeURIComponent(id));
