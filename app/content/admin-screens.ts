import { pages, pageTypes, type PageKey } from "./pages";
import { sections, type SectionDef } from "#domain/registry.ts";

/** The back office's navigation (a light module of its own, without the registry: app/content/back-office-nav.ts). */
export {
  ADMIN_AREAS,
  BACK_OFFICE_GROUPS,
  areaHref,
  isAreaActive,
  type BackOfficeGroup,
  type NavBadge,
} from "./back-office-nav";

/** Paths without their trailing slash (React Router matches both forms). */
export const routePath = (p: string) => p.replace(/^\//, "").replace(/\/$/, "");

/** Sections edited on the generic content screens (the search listings have screens of their own). */
export const GENERIC_SECTIONS: readonly SectionDef[] = sections.filter((s: SectionDef) => !s.admin.own);

/** The back office's content screens: each screen path with the sections it shows, in registry order. */
export const ADMIN_SCREENS: { path: string; sections: SectionDef[] }[] = [
  ...new Set(GENERIC_SECTIONS.map((s) => s.admin.screen)),
].map((path) => ({
  path,
  sections: GENERIC_SECTIONS.filter((s) => s.admin.screen === path),
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
    ...GENERIC_SECTIONS.map((s) => ({ path: s.admin.edit, section: s })),
    ...EDIT_ALIASES.map((a) => ({ path: a.path, section: sections.find((s) => s.type === a.type)! })),
  ];
  for (const c of candidates) {
    const pattern = new RegExp(`^${routePath(c.path).replace(":id", "([^/]+)")}$`);
    const m = pattern.exec(p);
    if (m) return { section: c.section, id: decodeURIComponent(m[1]!) };
  }
  return undefined;
}

/** The address of a record's edit screen (the rule lives in domain/registry.ts, which the server reads too). */
export { editHref } from "#domain/registry.ts";

/** The dashboard's cards (spec 2, section 2): the screens whose registry entry names one, in registry order. */
export const DASHBOARD_CARDS: { to: string; label: string }[] = ADMIN_SCREENS.flatMap((screen) =>
  screen.sections.flatMap((s) => (s.admin.card ? [{ to: screen.path, label: s.admin.card }] : [])),
);

export interface HubGroup {
  page: PageKey;
  name: string;
  /** "View on site". */
  path: string;
  /** The screens holding this page's sections, in page order, each with the titles of those sections. */
  screens: { path: string; heading: string; sections: string[] }[];
}

/** The settings hub: the content screens grouped by the public page where their sections appear. */
export const HUB_GROUPS: HubGroup[] = (Object.keys(pages) as PageKey[]).map((page) => {
  const screens: HubGroup["screens"] = [];
  for (const type of pageTypes(page)) {
    const section = sections.find((s) => s.type === type)!;
    const screen = ADMIN_SCREENS.find((x) => x.path === section.admin.screen)!;
    const card = screens.find((c) => c.path === screen.path);
    if (card) card.sections.push(section.title);
    else screens.push({ path: screen.path, heading: screen.sections[0]!.admin.heading, sections: [section.title] });
  }
  return { page, name: pages[page].name, path: pages[page].path, screens };
});
