import path from "node:path";
import { describe, expect, it } from "vitest";
import {
  expandContractProblems,
  findContractions,
  readMigrations,
  readReleaseMarker,
  type ReleaseMarker,
} from "./expand-contract";

const DRIZZLE = path.resolve(import.meta.dirname, "../../drizzle");
const kinds = (sql: string) => findContractions("0099_x", sql).contractions.map((c) => `${c.kind} ${c.object}`);
const marker = (allowed: ReleaseMarker["allowed"] = []): ReleaseMarker => ({
  releases: [
    { version: "0.1.0", lastMigration: "0001_base" },
    { version: "0.2.0", lastMigration: "0002_stop_reading" },
  ],
  allowed,
});
const base = [
  { tag: "0001_base", sql: 'CREATE TABLE "notes" ("id" text PRIMARY KEY, "body" text, "legacy" text);' },
  { tag: "0002_stop_reading", sql: 'ALTER TABLE "notes" ADD COLUMN "title" text;' },
];

describe("the statements that contract a schema", () => {
  it("finds drops, renames, type changes and new NOT NULLs, as drizzle writes them and by hand", () => {
    expect(
      kinds(`DROP TABLE "rate_limits" CASCADE;--> statement-breakpoint
ALTER TABLE "public"."orders" DROP COLUMN "legacy";--> statement-breakpoint
alter table orders drop column if exists old_a, drop old_b;--> statement-breakpoint
ALTER TABLE "orders" RENAME COLUMN "total" TO "gross";--> statement-breakpoint
ALTER TABLE "notes" RENAME TO "memos";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "amount" SET DATA TYPE numeric(12, 2);--> statement-breakpoint
ALTER TABLE orders ALTER amount TYPE bigint USING amount::bigint;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "number" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "region" text NOT NULL;--> statement-breakpoint
ALTER TYPE "status" RENAME VALUE 'Paid' TO 'Settled';`),
    ).toEqual([
      "drop table rate_limits",
      "drop column orders.legacy",
      "drop column orders.old_a",
      "drop column orders.old_b",
      "rename orders.total",
      "rename notes",
      "change column type orders.amount",
      "change column type orders.amount",
      "set not null orders.number",
      "add not null column without default orders.region",
      "rename status (a value)",
    ]);
  });

  it("lets pass what only adds or loosens, and words inside strings and comments", () => {
    expect(
      kinds(`CREATE TABLE "memos" ("id" text PRIMARY KEY NOT NULL, "n" integer DEFAULT 0 NOT NULL);--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "currency" text DEFAULT 'USD' NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "seq" serial NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" ADD COLUMN "note" text;--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "note" DROP NOT NULL;--> statement-breakpoint
ALTER TABLE "orders" DROP CONSTRAINT "orders_x_fk";--> statement-breakpoint
ALTER TABLE "orders" ALTER COLUMN "note" SET DEFAULT 'DROP TABLE orders';--> statement-breakpoint
ALTER TABLE "orders" ADD CONSTRAINT "orders_y_fk" FOREIGN KEY ("y") REFERENCES "memos"("id");--> statement-breakpoint
DROP INDEX "orders_note_idx";--> statement-breakpoint
-- ALTER TABLE "orders" DROP COLUMN "note": not yet (decision 083)
UPDATE "orders" SET "note" = 'rename column a to b';`),
    ).toEqual([]);
  });

  it("found the three contractions of the history (before the rule), on the real files", () => {
    const all = readMigrations(DRIZZLE)
      .filter((m) => m.tag <= "0043_imports")
      .flatMap((m) => findContractions(m.tag, m.sql).contractions);
    expect(all.map((c) => `${c.migration}: ${c.kind} ${c.object}`)).toEqual([
      "0006_rate_limiter: drop table rate_limits",
      "0014_order_numbers_and_timeline: set not null orders.number",
      "0036_ipn_messages_join_payment_notices: drop table payment_events",
    ]);
  });
});

describe("the expand and contract check", () => {
  it("refuses a contraction of what the last release may read, saying what to do", () => {
    const problems = expandContractProblems(
      [...base, { tag: "0003_drop_legacy", sql: 'ALTER TABLE "notes" DROP COLUMN "legacy";' }],
      marker(),
    );
    expect(problems).toHaveLength(1);
    expect(problems[0]).toMatch(
      /^0003_drop_legacy: drop column notes\.legacy .*release 0\.2\.0, which old hosts still run .*drizzle\/released\.json's "allowed"/,
    );
  });

  it("allows it with an entry naming a released version that stopped reading it, after a renumbering too", () => {
    const entry = {
      migration: "drop_legacy",
      kind: "drop column" as const,
      object: "notes.legacy",
      stoppedReadingIn: "0.2.0",
      reason: "0.2.0 reads notes.title; nothing reads legacy since.",
    };
    expect(
      expandContractProblems(
        [...base, { tag: "0007_drop_legacy", sql: 'ALTER TABLE "notes" DROP COLUMN "legacy";' }],
        marker([entry]),
      ),
    ).toEqual([]);
    // The release that stops reading it must be out already: one not yet released is no reason.
    expect(
      expandContractProblems(
        [...base, { tag: "0003_drop_legacy", sql: 'ALTER TABLE "notes" DROP COLUMN "legacy";' }],
        marker([{ ...entry, stoppedReadingIn: "0.3.0" }]),
      )[0],
    ).toMatch(/0\.3\.0 is not a release in drizzle\/released\.json/);
  });

  it("lets the new migrations take back what they made, but not add a NOT NULL old hosts cannot fill", () => {
    const made = [
      ...base,
      {
        tag: "0003_drafts",
        sql: 'CREATE TABLE "drafts" ("id" text);--> statement-breakpoint\nALTER TABLE "notes" ADD COLUMN "tmp" text DEFAULT \'\';',
      },
      {
        tag: "0004_tidy",
        sql: `ALTER TABLE "drafts" RENAME COLUMN "id" TO "key";--> statement-breakpoint
ALTER TABLE "drafts" ADD COLUMN "kind" text NOT NULL;--> statement-breakpoint
ALTER TABLE "notes" ALTER COLUMN "tmp" SET NOT NULL;--> statement-breakpoint
ALTER TABLE "notes" DROP COLUMN "tmp";`,
      },
    ];
    expect(expandContractProblems(made, marker())).toEqual([]);
    const notNull = [
      ...base,
      { tag: "0003_required_title", sql: 'ALTER TABLE "notes" ALTER COLUMN "title" SET NOT NULL;' },
    ];
    expect(expandContractProblems(notNull, marker())[0]).toMatch(/^0003_required_title: set not null notes\.title/);
  });

  it("says when the marker names a migration that is not there, or allows one that does not exist", () => {
    expect(expandContractProblems(base.slice(0, 1), marker())[0]).toMatch(
      /release 0\.2\.0 ended with migration 0002_stop_reading, which is not in drizzle\//,
    );
    expect(
      expandContractProblems(
        base,
        marker([
          {
            migration: "gone",
            kind: "drop table",
            object: "x",
            stoppedReadingIn: "0.1.0",
            reason: "a reason long enough to pass",
          },
        ]),
      ),
    ).toEqual([expect.stringMatching(/allows drop table x in migration gone, which is not in drizzle\//)]);
  });

  it("passes on the committed migrations since the last release (CI's check, docs/decisions/083)", () => {
    const released = readReleaseMarker(DRIZZLE);
    expect(expandContractProblems(readMigrations(DRIZZLE), released)).toEqual([]);
  });
});
