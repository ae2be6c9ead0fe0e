import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc, eq } from "drizzle-orm";
import { messages } from "../../server/db/schema";
import { pageOf, smallPageOf } from "../../server/lib/paging";
import { createTestDatabase } from "../support/db";

/** The one SQL paging helper (server/lib/paging.ts) behind every paginated list, on a real PostgreSQL. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;

beforeAll(async () => {
  database = await createTestDatabase();
  // Five unread messages a minute apart (m1 oldest), and one read one that the filter leaves out.
  await database.db.insert(messages).values([
    ...[1, 2, 3, 4, 5].map((i) => ({
      name: `m${i}`,
      email: "a@example.org",
      subject: "S",
      message: "M",
      messageStatus: "UnRead" as const,
      createdAt: new Date(Date.UTC(2026, 0, 1, 10, i)),
    })),
    { name: "read", email: "a@example.org", subject: "S", message: "M", messageStatus: "Read" as const },
  ]);
});
afterAll(() => database?.drop());

const unread = (page: unknown) =>
  pageOf(database.db, messages, {
    where: eq(messages.messageStatus, "UnRead"),
    orderBy: [desc(messages.createdAt), desc(messages.id)],
    page,
    perPage: 2,
  });

describe("pageOf", () => {
  it("counts and cuts in SQL: the filtered rows, in order, one page of them", async () => {
    const first = await unread(undefined);
    expect(first.page).toEqual({ page: 1, pages: 3, perPage: 2, total: 5, offset: 0 });
    expect(first.rows.map((r) => r.name)).toEqual(["m5", "m4"]);
    const second = await unread("2");
    expect(second.rows.map((r) => r.name)).toEqual(["m3", "m2"]);
  });

  it("a page beyond the end shows the last one; a bad page the first", async () => {
    const last = await unread("9");
    expect(last.page).toMatchObject({ page: 3, offset: 4 });
    expect(last.rows.map((r) => r.name)).toEqual(["m1"]);
    expect((await unread("x")).page.page).toBe(1);
  });

  it("without a filter, every row", async () => {
    const all = await pageOf(database.db, messages, { orderBy: [desc(messages.createdAt)], page: 1, perPage: 10 });
    expect(all.page.total).toBe(6);
    expect(all.rows).toHaveLength(6);
  });
});

describe("smallPageOf (rows and count in one query)", () => {
  const small = (page: unknown, where = eq(messages.messageStatus, "UnRead")) =>
    smallPageOf(database.db, messages, {
      where,
      orderBy: [desc(messages.createdAt), desc(messages.id)],
      page,
      perPage: 2,
    });

  it("gives what pageOf gives: the page, its rows, the count", async () => {
    for (const page of [undefined, "2", "3", "9", "x", 0]) {
      const [a, b] = [await small(page), await unread(page)];
      expect(a.page, String(page)).toEqual(b.page);
      expect(a.rows.map((r) => r.name)).toEqual(b.rows.map((r) => r.name));
    }
  });

  it("an empty list: no rows, one page", async () => {
    const none = await small("3", eq(messages.name, "nobody"));
    expect(none).toEqual({ rows: [], page: { page: 1, pages: 1, perPage: 2, total: 0, offset: 0 } });
  });
});
