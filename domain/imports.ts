/**
 * Importing members from a CSV file (issue 37 part 3, decision 079): our fields, the column sets of the exports we know
 * (our own customers CSV, Ghost members, Paid Memberships Pro members, MemberPress members), the mapping a header gets,
 * and what one row says, as pure functions. The service (server/services/imports.ts) streams the file through these.
 */
import { fromZonedTime } from "./zoned-time";
import { isEmail } from "./fields";

/** The fields of a customer a column can fill. */
export const IMPORT_FIELDS = [
  "email",
  "name",
  "firstName",
  "lastName",
  "joinedAt",
  "membershipPackage",
  "membershipEnds",
  "newsletter",
] as const;
export type ImportField = (typeof IMPORT_FIELDS)[number];

/** What each field is called on the screen. */
export const IMPORT_FIELD_LABELS: Record<ImportField, string> = {
  email: "Email",
  name: "Name",
  firstName: "First name",
  lastName: "Last name",
  joinedAt: "Joined on",
  membershipPackage: "Membership package",
  membershipEnds: "Membership ends",
  newsletter: "Newsletter consent",
};

/** A column's use: one of our fields, or nothing (the column is ignored, with a notice). */
export type ColumnUse = ImportField | "";

/** Which column (by its position in the header) fills which field. */
export type ImportMapping = Record<ImportField, number | null>;

/** The presets: a known export's columns, each header (lower case) to a field. */
export const IMPORT_PRESETS = ["ours", "ghost", "pmpro", "memberpress", "custom"] as const;
export type ImportPreset = (typeof IMPORT_PRESETS)[number];

export const IMPORT_PRESET_LABELS: Record<ImportPreset, string> = {
  ours: "This site's customers export",
  ghost: "Ghost members export",
  pmpro: "Paid Memberships Pro members list",
  memberpress: "MemberPress members export",
  custom: "Another file (columns chosen by hand)",
};

/** The customers CSV export's columns (server/services/customers.ts csv): the import's own format, first six read back. */
export const OUR_COLUMNS = {
  email: "Email",
  name: "Name",
  joinedAt: "Joined (UTC)",
  membershipPackage: "Membership Package",
  membershipEnds: "Membership Ends (UTC)",
  newsletter: "Newsletter",
} as const satisfies Partial<Record<ImportField, string>>;

/**
 * The full column sets of each export (decision 079 names them), and which of them we read. Headers are compared
 * trimmed and in lower case.
 */
export const PRESET_COLUMNS: Record<
  Exclude<ImportPreset, "custom">,
  { columns: string[]; reads: Partial<Record<ImportField, string>> }
> = {
  ours: {
    columns: [...Object.values(OUR_COLUMNS), "Membership", "Orders", "Total Spent", "Last Order", "Customer ID"],
    reads: OUR_COLUMNS,
  },
  ghost: {
    columns: [
      "id",
      "email",
      "name",
      "note",
      "subscribed_to_emails",
      "complimentary_plan",
      "stripe_customer_id",
      "created_at",
      "deleted_at",
      "labels",
      "tiers",
    ],
    reads: { email: "email", name: "name", joinedAt: "created_at", newsletter: "subscribed_to_emails" },
  },
  pmpro: {
    columns: [
      "id",
      "username",
      "firstname",
      "lastname",
      "email",
      "billing firstname",
      "billing lastname",
      "address1",
      "address2",
      "city",
      "state",
      "zipcode",
      "country",
      "phone",
      "membership",
      "membership_id",
      "fee",
      "term",
      "discount_code_id",
      "discount_code",
      "joined",
      "startdate",
      "expires",
    ],
    reads: {
      email: "email",
      firstName: "firstname",
      lastName: "lastname",
      membershipPackage: "membership",
      joinedAt: "joined",
      membershipEnds: "expires",
    },
  },
  memberpress: {
    columns: [
      "ID",
      "username",
      "email",
      "first_name",
      "last_name",
      "name",
      "status",
      "memberships",
      "inactive_memberships",
      "last_login_date",
      "login_count",
      "txn_count",
      "active_txn_count",
      "expired_txn_count",
      "trial_txn_count",
      "sub_count",
      "active_sub_count",
      "pending_sub_count",
      "suspended_sub_count",
      "cancelled_sub_count",
      "latest_txn_date",
      "first_txn_date",
      "total_spent",
      "registered",
      "expires_at",
    ],
    reads: {
      email: "email",
      firstName: "first_name",
      lastName: "last_name",
      name: "name",
      joinedAt: "registered",
      membershipPackage: "memberships",
      membershipEnds: "expires_at",
    },
  },
};

const key = (header: string) =>
  header
    .replace(/^\uFEFF/, "")
    .trim()
    .toLowerCase();

/** Our own export's headers carry the site's zone or currency in brackets: "Last Order (Europe/London)". */
const bare = (header: string) => key(header).replace(/\s*\([^)]*\)$/, "");

/** Plain words a hand-made file may use for each field (compared like headers). */
const SYNONYMS: Record<ImportField, string[]> = {
  email: ["email", "e-mail", "email address", "user_email", "customer email"],
  name: ["name", "full name", "display_name", "customer name"],
  firstName: ["first name", "firstname", "first_name", "given name"],
  lastName: ["last name", "lastname", "last_name", "surname", "family name"],
  joinedAt: ["joined", "joined at", "created", "created at", "created_at", "registered", "signed up", "date joined"],
  membershipPackage: ["membership package", "package", "membership", "plan", "level", "tier"],
  membershipEnds: ["membership ends", "expires", "expires at", "expires_at", "end date", "enddate", "expiry"],
  newsletter: ["newsletter", "subscribed", "subscribed_to_emails", "consent", "newsletter consent"],
};

/** How well a header fits a preset: the share of the preset's read columns present. */
function fit(headers: string[], preset: Exclude<ImportPreset, "custom">): number {
  const present = new Set(headers.map(preset === "ours" ? bare : key));
  const reads = Object.values(PRESET_COLUMNS[preset].reads).map((h) => (preset === "ours" ? bare(h) : key(h)));
  const all = PRESET_COLUMNS[preset].columns.map((h) => (preset === "ours" ? bare(h) : key(h)));
  if (!reads.every((h) => present.has(h))) return 0;
  return all.filter((h) => present.has(h)).length / all.length;
}

/** The preset a header looks like: every column it reads is there, the most of its columns present; else custom. */
export function detectPreset(headers: string[]): ImportPreset {
  let best: ImportPreset = "custom";
  let score = 0;
  for (const preset of ["ours", "ghost", "pmpro", "memberpress"] as const) {
    const s = fit(headers, preset);
    if (s > score) [best, score] = [preset, s];
  }
  return best;
}

/** An empty mapping (no column for any field). */
export const noMapping = (): ImportMapping => Object.fromEntries(IMPORT_FIELDS.map((f) => [f, null])) as ImportMapping;

/**
 * The mapping a preset gives a header: each field the preset reads, at the position of its column (absent: none).
 * "custom" guesses from plain words (SYNONYMS), each column used once.
 */
export function mappingFor(headers: string[], preset: ImportPreset): ImportMapping {
  const mapping = noMapping();
  if (preset !== "custom") {
    const norm = preset === "ours" ? bare : key;
    const at = new Map<string, number>();
    headers.forEach((h, i) => {
      if (!at.has(norm(h))) at.set(norm(h), i);
    });
    for (const [field, header] of Object.entries(PRESET_COLUMNS[preset].reads))
      mapping[field as ImportField] = at.get(norm(header)) ?? null;
    return mapping;
  }
  const used = new Set<number>();
  for (const field of IMPORT_FIELDS) {
    const i = headers.findIndex((h, i) => !used.has(i) && SYNONYMS[field].includes(bare(h)));
    if (i >= 0) {
      mapping[field] = i;
      used.add(i);
    }
  }
  return mapping;
}

/** What the header proposes: the preset it looks like and that preset's mapping. */
export function proposeMapping(headers: string[]): { preset: ImportPreset; mapping: ImportMapping } {
  const preset = detectPreset(headers);
  return { preset, mapping: mappingFor(headers, preset) };
}

/** A mapping's problems, in plain sentences (empty: it can be used). */
export function mappingProblems(mapping: ImportMapping, columns: number): string[] {
  const problems: string[] = [];
  if (mapping.email === null) problems.push("Choose the column that holds the email address.");
  const seen = new Map<number, ImportField>();
  for (const field of IMPORT_FIELDS) {
    const i = mapping[field];
    if (i === null) continue;
    if (!Number.isInteger(i) || i < 0 || i >= columns) problems.push(`${IMPORT_FIELD_LABELS[field]}: no such column.`);
    else if (seen.has(i))
      problems.push(
        `${IMPORT_FIELD_LABELS[field]} and ${IMPORT_FIELD_LABELS[seen.get(i)!]} use the same column: choose one.`,
      );
    else seen.set(i, field);
  }
  return problems;
}

/** The columns no field reads: ignored, each named in a notice. */
export function ignoredColumns(headers: string[], mapping: ImportMapping): string[] {
  const used = new Set(Object.values(mapping).filter((i): i is number => i !== null));
  return headers.filter((_, i) => !used.has(i)).map((h) => h.replace(/^\uFEFF/, "").trim() || "(no heading)");
}

/** A newsletter cell: consent confirmed, not confirmed (asked, or pending), or nothing said. */
export type NewsletterConsent = "confirmed" | "unconfirmed" | "none";

const YES = new Set(["true", "yes", "y", "1", "confirmed", "subscribed", "on"]);
const PENDING = new Set(["pending", "unconfirmed", "not confirmed"]);
const NO = new Set(["", "false", "no", "n", "0", "unsubscribed", "off", "none"]);

/** What a newsletter cell says; null for a word we cannot read. */
export function consentOf(cell: string): NewsletterConsent | null {
  const v = cell.trim().toLowerCase();
  if (YES.has(v)) return "confirmed";
  if (PENDING.has(v)) return "unconfirmed";
  if (NO.has(v)) return "none";
  return null;
}

const DAY_MS = 86_400_000;
const ISO = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}(:\d{2}(\.\d{1,6})?)?(Z|[+-]\d{2}:?\d{2})$/;
const LOCAL = /^(\d{4})-(\d{2})-(\d{2})[ T](\d{2}):(\d{2})(?::(\d{2}))?$/;
const DAY = /^(\d{4})-(\d{2})-(\d{2})$/;
const US = /^(\d{1,2})\/(\d{1,2})\/(\d{4})$/;

/**
 * A date cell as a moment: ISO 8601 with a zone (exact, our export and Ghost's), a date and time without one (in the
 * site's time zone, MemberPress), or a day alone (2026-12-31 or PMPro's 12/31/2026: that day's start in the site's
 * zone, or with `endOfDay` its last second, 23:59:59, as PMPro keeps an end date: a membership "expiring" on the 31st
 * lasts all of it and is shown ending on the 31st). Empty and PMPro's "Never": null. A cell we cannot read: undefined.
 */
export function parseImportDate(cell: string, timeZone: string, endOfDay = false): Date | null | undefined {
  const v = cell.trim();
  if (v === "" || v.toLowerCase() === "never") return null;
  if (ISO.test(v)) {
    const d = new Date(v);
    return Number.isNaN(d.getTime()) ? undefined : d;
  }
  const local = LOCAL.exec(v);
  if (local) {
    const [, y, mo, d, h, mi, s] = local;
    return fromZonedTime(`${y}-${mo}-${d}T${h}:${mi}:${s ?? "00"}`, timeZone) ?? undefined;
  }
  let ymd: [string, string, string] | null = null;
  const day = DAY.exec(v);
  if (day) ymd = [day[1]!, day[2]!, day[3]!];
  const us = US.exec(v);
  if (us) ymd = [us[3]!, us[1]!.padStart(2, "0"), us[2]!.padStart(2, "0")];
  if (!ymd) return undefined;
  const start = fromZonedTime(`${ymd[0]}-${ymd[1]}-${ymd[2]}T00:00:00`, timeZone);
  if (!start) return undefined;
  if (!endOfDay) return start;
  const next = new Date(Date.UTC(+ymd[0], +ymd[1] - 1, +ymd[2]) + DAY_MS).toISOString().slice(0, 10);
  const after = fromZonedTime(`${next}T00:00:00`, timeZone);
  return after ? new Date(after.getTime() - 1000) : undefined;
}

/** The most days a membership may still run (the grant's bound, domain/customers.ts grantSchema). */
export const MAX_IMPORT_DAYS = 3650;
export const MAX_NAME = 200;
export const MAX_PACKAGE = 200;

/** One row as the import uses it. */
export interface ImportRow {
  email: string;
  name: string;
  joinedAt: string | null;
  membershipPackage: string | null;
  /** ISO moment; null: no membership in the file. */
  membershipEnds: string | null;
  newsletter: NewsletterConsent;
  /** Notices about the row that do not refuse it (an ended membership left out). */
  notes: string[];
}

export type RowVerdict = { ok: true; row: ImportRow } | { ok: false; reason: string };

/** A cell our export guarded against spreadsheets (a quote mark before = + - @, a tab, a CR or their full-width forms). */
const GUARDED = /^'(?=[=+\-@\t\r\uFF1D\uFF0B\uFF0D\uFF20])/;

/** A text cell as stored: the export's guard quote taken off again (the text is kept as text either way). */
export const unguarded = (cell: string) => cell.replace(GUARDED, "");

/**
 * What one row of the file says, or why it is refused (one plain sentence). Cells are kept as text: a cell starting
 * with = + - @ or a tab is a name like any other here (nothing interprets it; our export's guard quote is taken off),
 * and the export guards it again.
 */
export function readRow(cells: string[], mapping: ImportMapping, timeZone: string, now: Date): RowVerdict {
  const cell = (field: ImportField) => {
    const i = mapping[field];
    return i === null ? "" : unguarded(cells[i] ?? "");
  };
  const email = cell("email").trim().toLowerCase();
  if (email === "") return { ok: false, reason: "The email address is empty." };
  if (!isEmail(email)) return { ok: false, reason: `"${cell("email").trim().slice(0, 80)}" is not an email address.` };
  const joined = parseImportDate(cell("joinedAt"), timeZone);
  if (joined === undefined)
    return { ok: false, reason: `The joined date "${cell("joinedAt").trim().slice(0, 40)}" is not a date.` };
  const ends = parseImportDate(cell("membershipEnds"), timeZone, true);
  if (ends === undefined)
    return {
      ok: false,
      reason: `The membership end date "${cell("membershipEnds").trim().slice(0, 40)}" is not a date.`,
    };
  const consent = consentOf(cell("newsletter"));
  if (consent === null)
    return {
      ok: false,
      reason: `The newsletter cell "${cell("newsletter").trim().slice(0, 40)}" is neither yes, no nor pending.`,
    };
  const full = cell("name").trim();
  const parts = [cell("firstName").trim(), cell("lastName").trim()].filter(Boolean).join(" ");
  const name = full || parts;
  if (name.length > MAX_NAME) return { ok: false, reason: `The name is longer than ${MAX_NAME} characters.` };
  const pkg = cell("membershipPackage").trim();
  if (pkg.length > MAX_PACKAGE)
    return { ok: false, reason: `The membership package is longer than ${MAX_PACKAGE} characters.` };
  const notes: string[] = [];
  let membershipEnds: string | null = null;
  if (ends) {
    if (ends.getTime() <= now.getTime()) notes.push("The membership has ended: it is not imported.");
    else if (ends.getTime() - now.getTime() > MAX_IMPORT_DAYS * DAY_MS)
      return { ok: false, reason: `The membership ends more than ${MAX_IMPORT_DAYS} days from now.` };
    else membershipEnds = ends.toISOString();
  }
  return {
    ok: true,
    row: {
      email,
      name,
      joinedAt: joined ? joined.toISOString() : null,
      membershipPackage: membershipEnds && pkg ? pkg : null,
      membershipEnds,
      newsletter: consent,
      notes,
    },
  };
}

/**
 * The days a given membership must carry so that its window, laid back from `ends`, ends exactly then: the whole days
 * from `now` to `ends`, rounded up (at least one). The order's activation is `ends` less those days (within the last
 * day), so a customer with no other membership has a window ending at exactly `ends`.
 */
export function importedWindow(ends: Date, now: Date): { days: number; activatedAt: Date } {
  const days = Math.max(1, Math.ceil((ends.getTime() - now.getTime()) / DAY_MS));
  return { days, activatedAt: new Date(ends.getTime() - days * DAY_MS) };
}

/** The states of an import, in order. */
export const IMPORT_STATES = ["uploaded", "checking", "checked", "importing", "done", "failed"] as const;
export type ImportState = (typeof IMPORT_STATES)[number];

export const IMPORT_STATE_LABELS: Record<ImportState, string> = {
  uploaded: "Uploaded: choose the columns",
  checking: "Checking the file",
  checked: "Checked: ready to import",
  importing: "Importing",
  done: "Imported",
  failed: "Stopped",
};

/** What the dry run says a row will do. */
export const ROW_ACTIONS = ["create", "update", "skip", "refuse"] as const;
export type RowAction = (typeof ROW_ACTIONS)[number];

export const ROW_ACTION_LABELS: Record<RowAction, string> = {
  create: "New customer",
  update: "Existing customer",
  skip: "Nothing to change",
  refuse: "Refused",
};

/** The largest file accepted. */
export const MAX_IMPORT_BYTES = 50 * 1024 * 1024;
/** The most rows a file may have. */
export const MAX_IMPORT_ROWS = 200_000;
