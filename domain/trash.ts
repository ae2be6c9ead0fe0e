import type { StaffArea } from "./capabilities";

/**
 * The trash (decision 039): what a deletion of site content, a catalogue item or an image keeps for a while, so that
 * a slip can be undone. Each kind is opened by the staff area of what it holds.
 */
export const TRASH_DAYS = 30;

export const TRASH_KINDS = ["content", "items", "media"] as const;
export type TrashKind = (typeof TRASH_KINDS)[number];

export const TRASH_KIND: { readonly [K in TrashKind]: { area: StaffArea; title: string } } = {
  content: { area: "content", title: "Site content" },
  items: { area: "items", title: "Catalogue items" },
  media: { area: "media", title: "Images" },
};

export const isTrashKind = (value: unknown): value is TrashKind =>
  typeof value === "string" && (TRASH_KINDS as readonly string[]).includes(value);

const DAY_MS = 24 * 60 * 60 * 1000;

/** When something put in the trash at `deletedAt` is deleted for good. */
export function purgeAt(deletedAt: Date): Date {
  return new Date(deletedAt.getTime() + TRASH_DAYS * DAY_MS);
}

/** The moment before which whatever was put in the trash is due to be deleted for good, at `now`. */
export function purgeBefore(now: Date): Date {
  return new Date(now.getTime() - TRASH_DAYS * DAY_MS);
}

/** Whether something put in the trash at `deletedAt` is due to be deleted for good at `now`. */
export const isDue = (deletedAt: Date, now: Date): boolean => purgeAt(deletedAt).getTime() <= now.getTime();

/** The kinds of the trash a staff member sees: those whose area their role opens (`opens`: domain/capabilities' can). */
export const kindsFor = (opens: (area: StaffArea) => boolean): TrashKind[] =>
  TRASH_KINDS.filter((k) => opens(TRASH_KIND[k].area));
