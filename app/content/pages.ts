import {
  getSection,
  type BlockType,
  type ContentSnapshot,
  type HeadingOf,
  type SectionType,
} from "#domain/registry.ts";

/**
 * What each public page shows: its sections in order, declared once. A page's loader picks exactly these (and their
 * headings, see the registry's `heading`) from the content snapshot, and RenderSections draws them with the components
 * of app/components/sections/index.ts. The settings hub groups the admin screens by these pages.
 * Shared by server and browser: no server-only or React imports here.
 */

/** What a page may ask of a section's component beyond its records. */
export interface BlockOptions {
  /** The service page also shows each item's name and image. */
  serviceItem: { detailed?: boolean };
  /** The service page shows the first about block only, with fixed skill bars (spec 1, section 9). */
  about: { layout?: "alternating" | "skills" };
  /** /pricing titles the section with its h1. */
  pricing: { titleAs?: "h1" | "h2" };
}
export type OptionsOf<T extends BlockType> = T extends keyof BlockOptions ? BlockOptions[T] : {};

/** A section on a page: its type, or its type with the options its component takes. */
export type Block = { [T in BlockType]: T | ({ type: T } & OptionsOf<T>) }[BlockType];

export interface PageDef {
  /** What the settings hub calls the page. */
  readonly name: string;
  /** Where it is seen on the site ("View on site"). */
  readonly path: string;
  readonly blocks: readonly Block[];
}

export const pages = {
  home: {
    name: "Home",
    path: "/",
    blocks: ["banner", "serviceItem", "about", "pricing", "testimonial", "action"],
  },
  service: {
    name: "Service page",
    path: "/service/",
    blocks: [
      "counter",
      { type: "serviceItem", detailed: true },
      { type: "about", layout: "skills" },
      "workStep",
      "featureItem",
      "step",
      "experience",
      "videoTeamMember",
      "teamMember",
      "action",
    ],
  },
  pricing: {
    name: "Pricing page",
    path: "/pricing",
    blocks: [{ type: "pricing", titleAs: "h1" }, "faqItem"],
  },
  contact: {
    name: "Contact page",
    path: "/contact",
    blocks: ["contactBlock"],
  },
  /** The documents a person accepts when registering (decision 037), linked from the footer. */
  privacy: {
    name: "Privacy notice",
    path: "/privacy",
    blocks: ["privacy"],
  },
  terms: {
    name: "Terms",
    path: "/terms",
    blocks: ["terms"],
  },
  /** Every page's frame (root.tsx): the logo in the header, the rest in the footer. */
  chrome: {
    name: "Header and footer",
    path: "/",
    blocks: ["logo", "footerAbout", "footerAddress", "footerSocial", "copyright"],
  },
} as const satisfies Record<string, PageDef>;

export type PageKey = keyof typeof pages;

type BlockTypeOf<B> = B extends { type: infer T } ? T : B;
type ListedTypes<P extends PageKey> = BlockTypeOf<(typeof pages)[P]["blocks"][number]> & BlockType;
/** The section types a page reads: its blocks and their headings. */
export type PageType<P extends PageKey> = ListedTypes<P> | HeadingOf<ListedTypes<P>>;
/** The part of the content snapshot a page reads. */
export type PageContent<P extends PageKey> = Pick<ContentSnapshot, PageType<P>>;

export const blockType = (block: Block): BlockType => (typeof block === "string" ? block : block.type);

/** The section types a page reads, in page order, each heading just before its list. */
export function pageTypes(page: PageKey): SectionType[] {
  return pages[page].blocks.flatMap((block) => {
    const type = blockType(block);
    const heading = getSection(type)?.heading as SectionType | undefined;
    return heading ? [heading, type] : [type];
  });
}

/** Exactly the sections a page shows, picked from the snapshot. */
export function pickContent<P extends PageKey>(snapshot: ContentSnapshot, page: P): PageContent<P> {
  return Object.fromEntries(pageTypes(page).map((type) => [type, snapshot[type]])) as PageContent<P>;
}

/** The pages a section appears on (a heading appears where its list does). */
export function pagesShowing(type: SectionType): PageKey[] {
  return (Object.keys(pages) as PageKey[]).filter((page) => pageTypes(page).includes(type));
}
