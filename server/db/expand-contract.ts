import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";

/**
 * Expand and contract (docs/decisions/083): during a rolling upgrade the hosts of the last release keep serving on the
 * schema the new release migrated, so a migration may only add (tables, nullable or defaulted columns). Dropping,
 * renaming, retyping or tightening what the last release still reads or writes waits for a release after the one that
 * stopped reading it, and is then named, with its reason, in drizzle/released.json's `allowed`. This module finds such
 * statements in the migrations added since the last release and says which are not allowed.
 */

export type ContractionKind =
  | "drop table"
  | "drop column"
  | "rename"
  | "change column type"
  | "set not null"
  | "add not null column without default";

/** One statement that takes away or tightens something the last release may use. */
export interface Contraction {
  /** The migration's file name without `.sql` (`0045_drop_legacy_notes`). */
  migration: string;
  kind: ContractionKind;
  /** `table` or `table.column` (or `type.value` for an enum value renamed). */
  object: string;
  statement: string;
}

const allowedEntry = z.object({
  /** The migration's name without its number (`drop_legacy_notes`), so a renumbered migration keeps its entry. */
  migration: z.string().regex(/^[a-z0-9_]+$/, { error: "must be a migration's name without its number" }),
  kind: z.enum([
    "drop table",
    "drop column",
    "rename",
    "change column type",
    "set not null",
    "add not null column without default",
  ]),
  object: z.string().min(1),
  /** The released version whose code no longer reads or writes it (so the hosts left running do not either). */
  stoppedReadingIn: z.string().min(1),
  reason: z.string().min(20, { error: "must say why in a sentence (20 characters or more)" }),
});

export const releaseMarker = z.object({
  /** Each release, oldest first: its version and the last migration it shipped. */
  releases: z
    .array(z.object({ version: z.string().min(1), lastMigration: z.string().regex(/^\d{4}_[a-z0-9_]+$/) }))
    .min(1),
  allowed: z.array(allowedEntry),
});
export type ReleaseMarker = z.infer<typeof releaseMarker>;

export interface Migration {
  tag: string;
  sql: string;
}

const IDENT = String.raw`(?:"(?:[^"]|"")+"|[A-Za-z_][\w$]*)`;
const QUALIFIED = String.raw`${IDENT}(?:\s*\.\s*${IDENT})?`;

/** `"public"."orders"` → `orders`; `"Odd""Name"` → `Odd"Name`. */
function name(identifier: string): string {
  const parts = identifier.match(new RegExp(IDENT, "g")) ?? [];
  const last = parts.at(-1) ?? identifier;
  return last.startsWith('"') ? last.slice(1, -1).replace(/""/g, '"') : last.toLowerCase();
}

/** A migration's statements, as drizzle splits them, without comments and with string literals emptied. */
export function statementsOf(sql: string): { text: string; original: string }[] {
  return sql
    .split("--> statement-breakpoint")
    .map((original) => ({
      original: original.trim(),
      text: original
        .replace(/'(?:[^']|'')*'/g, "''")
        .replace(/--[^\n]*/g, " ")
        .replace(/\/\*[\s\S]*?\*\//g, " ")
        .replace(/\s+/g, " ")
        .trim(),
    }))
    .filter((s) => s.text && s.text !== ";");
}

/** An ALTER TABLE's actions, split at the commas outside parentheses. */
function actions(body: string): string[] {
  const parts: string[] = [];
  let depth = 0;
  let current = "";
  for (const ch of body) {
    if (ch === "(") depth++;
    if (ch === ")") depth--;
    if (ch === "," && depth === 0) {
      parts.push(current.trim());
      current = "";
    } else current += ch;
  }
  if (current.trim()) parts.push(current.trim());
  return parts;
}

export interface Findings {
  contractions: Contraction[];
  /** Tables this migration creates. */
  createdTables: string[];
  /** Columns it adds (`table.column`), and whether each has a default. */
  addedColumns: { object: string; hasDefault: boolean }[];
}

/** What one migration's SQL takes away or tightens, and what it creates. */
export function findContractions(migration: string, sql: string): Findings {
  const found: Findings = { contractions: [], createdTables: [], addedColumns: [] };
  const add = (kind: ContractionKind, object: string, statement: string) =>
    found.contractions.push({ migration, kind, object, statement });
  for (const { text, original } of statementsOf(sql)) {
    const body = text.replace(/;$/, "");
    let m: RegExpExecArray | null;
    if ((m = new RegExp(String.raw`^create (?:unlogged )?table (?:if not exists )?(${QUALIFIED})`, "i").exec(body))) {
      found.createdTables.push(name(m[1]!));
      continue;
    }
    if ((m = /^drop table (?:if exists )?(.*?)(?: cascade| restrict)?$/i.exec(body))) {
      for (const table of m[1]!.match(new RegExp(QUALIFIED, "g")) ?? []) add("drop table", name(table), original);
      continue;
    }
    if ((m = new RegExp(String.raw`^alter type (${QUALIFIED}) rename value '' to`, "i").exec(body))) {
      add("rename", `${name(m[1]!)} (a value)`, original);
      continue;
    }
    if ((m = new RegExp(String.raw`^alter type (${QUALIFIED}) rename to`, "i").exec(body))) {
      add("rename", name(m[1]!), original);
      continue;
    }
    m = new RegExp(String.raw`^alter table (?:if exists )?(?:only )?(${QUALIFIED}) (.*)$`, "i").exec(body);
    if (!m) continue;
    const table = name(m[1]!);
    for (const action of actions(m[2]!)) {
      let a: RegExpExecArray | null;
      if ((a = new RegExp(String.raw`^drop (?:column )?(?:if exists )?(${IDENT})`, "i").exec(action))) {
        if (!/^drop (constraint|default|not null|expression|identity)\b/i.test(action))
          add("drop column", `${table}.${name(a[1]!)}`, original);
      } else if (/^rename to /i.test(action)) {
        add("rename", table, original);
      } else if ((a = new RegExp(String.raw`^rename (?:column )?(${IDENT}) to `, "i").exec(action))) {
        if (!/^rename constraint /i.test(action)) add("rename", `${table}.${name(a[1]!)}`, original);
      } else if ((a = new RegExp(String.raw`^alter (?:column )?(${IDENT}) (?:set data )?type `, "i").exec(action))) {
        add("change column type", `${table}.${name(a[1]!)}`, original);
      } else if ((a = new RegExp(String.raw`^alter (?:column )?(${IDENT}) set not null`, "i").exec(action))) {
        add("set not null", `${table}.${name(a[1]!)}`, original);
      } else if ((a = new RegExp(String.raw`^add (?:column )?(?:if not exists )?(${IDENT}) (.*)$`, "i").exec(action))) {
        if (/^(constraint|primary|unique|foreign|check|exclude)$/i.test(a[1]!)) continue;
        const definition = a[2]!;
        const hasDefault = /\b(default|generated)\b|^(small|big)?serial\b/i.test(definition);
        const object = `${table}.${name(a[1]!)}`;
        found.addedColumns.push({ object, hasDefault });
        if (/\bnot null\b/i.test(definition) && !hasDefault)
          add("add not null column without default", object, original);
      }
    }
  }
  return found;
}

/** `0045_drop_legacy_notes` → `drop_legacy_notes`. */
const unnumbered = (tag: string) => tag.replace(/^\d+_/, "");

/**
 * The problems with the migrations added since the last release (those after its `lastMigration`, in file order):
 * each contraction of something the last release may still read or write that no `allowed` entry names. A table or
 * column made by those same migrations is no old host's, so dropping or renaming it is free; a NOT NULL without a
 * default is free only on a table they made (old hosts insert into the others without it). Empty: the check passes.
 */
export function expandContractProblems(migrations: Migration[], marker: ReleaseMarker): string[] {
  const problems: string[] = [];
  const tags = migrations.map((m) => m.tag);
  const released = new Set(marker.releases.map((r) => r.version));
  const last = marker.releases.at(-1)!;
  const cut = tags.indexOf(last.lastMigration);
  if (cut < 0)
    return [
      `drizzle/released.json says release ${last.version} ended with migration ${last.lastMigration}, which is not in ` +
        `drizzle/: correct its lastMigration to a migration that release shipped.`,
    ];
  const created = new Set<string>();
  const added = new Map<string, boolean>();
  const used = new Set<number>();
  for (const migration of migrations.slice(cut + 1)) {
    const findings = findContractions(migration.tag, migration.sql);
    for (const table of findings.createdTables) created.add(table);
    for (const { object, hasDefault } of findings.addedColumns) if (!added.has(object)) added.set(object, hasDefault);
    for (const c of findings.contractions) {
      const table = c.object.split(".")[0]!;
      const newTable = created.has(table);
      const newColumn = added.has(c.object);
      const free =
        c.kind === "set not null" || c.kind === "add not null column without default"
          ? newTable || (c.kind === "set not null" && added.get(c.object) === true)
          : newTable || newColumn;
      if (free) continue;
      const entry = marker.allowed.findIndex(
        (a) => a.migration === unnumbered(c.migration) && a.kind === c.kind && a.object === c.object,
      );
      if (entry >= 0) {
        used.add(entry);
        const stopped = marker.allowed[entry]!.stoppedReadingIn;
        if (!released.has(stopped))
          problems.push(
            `${c.migration}: ${c.kind} ${c.object} is allowed because release ${stopped} stopped reading it, but ` +
              `${stopped} is not a release in drizzle/released.json: the release that stops reading it must ship ` +
              `before the migration that takes it away (docs/decisions/083).`,
          );
        continue;
      }
      problems.push(
        `${c.migration}: ${c.kind} ${c.object} ("${c.statement.split("\n")[0]!.slice(0, 120)}") while release ` +
          `${last.version}, which old hosts still run during a rolling upgrade, may read or write it. Expand first ` +
          `and contract in a later release: ship the code that stops using it, then add an entry to ` +
          `drizzle/released.json's "allowed" naming that release and why (docs/decisions/083).`,
      );
    }
  }
  const names = new Set(tags.map(unnumbered));
  marker.allowed.forEach((a, i) => {
    if (!used.has(i) && !names.has(a.migration))
      problems.push(
        `drizzle/released.json allows ${a.kind} ${a.object} in migration ${a.migration}, which is not in drizzle/: ` +
          `remove the entry or correct its name.`,
      );
  });
  return problems;
}

/** The committed migrations, in file order, read from their SQL (not from drizzle's journal). */
export function readMigrations(folder: string): Migration[] {
  return readdirSync(folder)
    .filter((f) => /^\d{4}_.*\.sql$/.test(f))
    .sort()
    .map((f) => ({ tag: f.replace(/\.sql$/, ""), sql: readFileSync(path.join(folder, f), "utf8") }));
}

/** drizzle/released.json, checked. */
export function readReleaseMarker(folder: string): ReleaseMarker {
  const file = path.join(folder, "released.json");
  const parsed = releaseMarker.safeParse(JSON.parse(readFileSync(file, "utf8")));
  if (!parsed.success)
    throw new Error(
      `${file} is not a release marker: ${parsed.error.issues.map((i) => `${i.path.join(".")} ${i.message}`).join("; ")}`,
    );
  return parsed.data;
}
