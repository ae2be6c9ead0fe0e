import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { desc, eq, sql } from "drizzle-orm";
import { messages } from "#server/db/schema.ts";
import { pageOf, preparedPages } from "#server/lib/paging.ts";
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

describe("pageOf: the page and its count in one statement", () => {
  /** How many statements a call sends through the test database's pool (node-postgres' own query, counted). */
  const statementsOf = async <T>(run: () => Promise<T>): Promise<{ result: T; statements: number }> => {
    const pool = database.db.$client;
    const query = pool.query.bind(pool);
    let statements = 0;
    pool.query = ((...args: Parameters<typeof query>) => {
      statements++;
      return query(...args);
    }) as typeof pool.query;
    try {
      return { result: await run(), statements };
    } finally {
      pool.query = query;
    }
  };

  it("one statement for a page within the list, whatever the count", async () => {
    expect((await statementsOf(() => unread("2"))).statements).toBe(1);
    expect((await statementsOf(() => unread(undefined))).statements).toBe(1);
  });

  it("beyond the end: counted alone, then the last page read (three statements, the same answer)", async () => {
    const { result, statements } = await statementsOf(() => unread("9"));
    expect(statements).toBe(3);
    expect(result.rows.map((r) => r.name)).toEqual(["m1"]);
  });

  it("an empty list: no rows, one page, counted alone", async () => {
    const { result, statements } = await statementsOf(() =>
      pageOf(database.db, messages, {
        where: eq(messages.name, "nobody"),
        orderBy: [desc(messages.id)],
        page: "3",
        perPage: 2,
      }),
    );
    expect(result).toEqual({ rows: [], page: { page: 1, pages: 1, perPage: 2, total: 0, offset: 0 } });
    expect(statements).toBe(2);
  });

  it("counted to a limit: the total is capped, and a page past it is the last reachable one", async () => {
    const capped = (page: unknown) =>
      pageOf(database.db, messages, {
        orderBy: [desc(messages.createdAt), desc(messages.id)],
        page,
        perPage: 2,
        countLimit: 3,
      });
    expect((await capped(1)).page).toEqual({ page: 1, pages: 2, perPage: 2, total: 3, offset: 0, capped: true });
    const past = await capped(3);
    expect(past.page).toMatchObject({ page: 2, offset: 2, capped: true });
    expect(past.rows.map((r) => r.name)).toEqual(["m4", "m3"]);
  });

  it("a count of the caller's, with placeholder values", async () => {
    const page = await pageOf(database.db, messages, {
      where: eq(messages.messageStatus, "UnRead"),
      orderBy: [desc(messages.createdAt), desc(messages.id)],
      page: 1,
      perPage: 2,
      total: sql`(select ${sql.placeholder("n")}::int)`,
      values: { n: 42 },
    });
    expect(page.page).toMatchObject({ total: 42, pages: 21 });
    expect(page.rows.map((r) => r.name)).toEqual(["m5", "m4"]);
  });

  it("preparedPages gives what pageOf gives, for every page", async () => {
    const unreadPages = preparedPages(database.db, messages, {
      where: eq(messages.messageStatus, sql.placeholder("status")),
      orderBy: [desc(messages.createdAt), desc(messages.id)],
    });
    for (const page of [undefined, "2", "3", "9", "x", 0]) {
      const [a, b] = [await unreadPages({ status: "UnRead" }, page, 2), await unread(page)];
      expect(a.page, String(page)).toEqual(b.page);
      expect(a.rows).toEqual(b.rows);
    }
    expect(await unreadPages({ status: "Replied" }, 1, 2)).toMatchObject({ rows: [], page: { total: 0 } });
  });
});
