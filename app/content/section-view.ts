import { editHref, recordTitle, type FieldDef, type ListLook, type SectionDef } from "#domain/registry.ts";
import { formatPrice } from "../lib/pricing";

/**
 * What a content screen draws of a section and its records, worked out by the screen's loader from the registry
 * (domain/registry.ts): the browser gets this data instead of the registry's code (16 KB minified), which its
 * screens would otherwise load only to read one entry. Only data: the registry's rules (checks, REST paths, texts)
 * stay on the server.
 */
export interface SectionView {
  readonly type: string;
  readonly title: string;
  readonly cardinality: "singleton" | "list";
  readonly fields: readonly FieldDef[];
  /** The screen's heading, and where it is (an edit screen links back to it). */
  readonly heading: string;
  readonly screen: string;
  readonly editLinkText?: string;
  /** Lists only: how the records look (links by default). */
  readonly list: ListLook;
  /** Lists only: the most records allowed are there (no add form), and what is said instead. */
  readonly full: boolean;
  readonly maxNotice?: string;
}

/** A stored record as a form and a list read it: `_id` and its fields. */
export type ListedRecord = Record<string, unknown> & { _id: string };

/** A record on its screen: its values, what a person calls it, the address of its edit screen, its card's lines. */
export interface RecordView {
  readonly record: ListedRecord;
  readonly title: string;
  readonly edit: string;
  readonly lines: readonly string[];
}

export function sectionView(section: SectionDef, records: readonly unknown[] = []): SectionView {
  const { admin } = section;
  return {
    type: section.type,
    title: section.title,
    cardinality: section.cardinality,
    fields: section.fields,
    heading: admin.heading,
    screen: admin.screen,
    ...(admin.editLinkText ? { editLinkText: admin.editLinkText } : {}),
    list: admin.list ?? { look: "links" },
    full: section.max !== undefined && records.length >= section.max,
    ...(section.maxNotice ? { maxNotice: section.maxNotice } : {}),
  };
}

export function recordView(section: SectionDef, record: ListedRecord): RecordView {
  const look = section.admin.list;
  return {
    record,
    title: recordTitle(section, record),
    edit: editHref(section, record._id),
    lines: look?.look === "cards" ? look.lines.map((line) => fillLine(line, record)) : [],
  };
}

/** A card line from its template: "{field}" is the value, "{field:price}" the value as money. */
export function fillLine(template: string, record: Record<string, unknown>): string {
  return template.replace(/\{(\w+)(?::(\w+))?\}/g, (_, name: string, format?: string) =>
    format === "price" ? formatPrice(Number(record[name])) : String(record[name] ?? ""),
  );
}
