import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { paymentAccounts } from "#server/db/schema.ts";
import { audited } from "#server/services/activity.ts";
import { createTestDatabase } from "../support/db";

/** The one helper every administrator write goes through (server/services/activity.ts), on a real PostgreSQL. */
let database: Awaited<ReturnType<typeof createTestDatabase>>;
const actor = { id: "admin-1", email: "chief@example.org" };

beforeAll(async () => {
  database = await createTestDatabase();
});
afterAll(() => database?.drop());

const entries = async (recordId: string) =>
  (
    await database.pool.query(
      "select actor_id, actor_email, action, entity, changes from activity_log where record_id = $1 order by created_at",
      [recordId],
    )
  ).rows;

const insertAccount = (paypalEmail: string) =>
  audited(database.db, actor, "payment_account", async (tx, audit) => {
    const [row] = await tx.insert(paymentAccounts).values({ paypalEmail }).returning();
    await audit.created(row!.id, { _id: row!.id, paypalEmail });
    return row!.id;
  });

describe("audited", () => {
  it("writes the change and its entry: who, what, the fields before and after, never the record's own id", async () => {
    const id = await insertAccount("till@example.org");
    await audited(database.db, actor, "payment_account", (_tx, audit) =>
      audit.updated(id, { paypalEmail: "till@example.org" }, { paypalEmail: "till2@example.org" }),
    );
    await audited(database.db, actor, "payment_account", (_tx, audit) =>
      audit.deleted(id, { _id: id, paypalEmail: "till2@example.org" }),
    );
    expect(await entries(id)).toEqual([
      {
        actor_id: "admin-1",
        actor_email: "chief@example.org",
        action: "create",
        entity: "payment_account",
        changes: { paypalEmail: { before: null, after: "till@example.org" } },
      },
      expect.objectContaining({
        action: "update",
        changes: { paypalEmail: { before: "till@example.org", after: "till2@example.org" } },
      }),
      expect.objectContaining({
        action: "delete",
        changes: { paypalEmail: { before: "till2@example.org", after: null } },
      }),
    ]);
  });

  it("a write that fails leaves neither the change nor its entry", async () => {
    let id = "";
    await expect(
      audited(database.db, actor, "payment_account", async (tx, audit) => {
        const [row] = await tx.insert(paymentAccounts).values({ paypalEmail: "gone@example.org" }).returning();
        id = row!.id;
        await audit.created(id, { paypalEmail: "gone@example.org" });
        throw new Error("refused after the write");
      }),
    ).rejects.toThrow("refused after the write");
    expect(await entries(id)).toEqual([]);
    expect((await database.pool.query("select 1 from payment_accounts where id = $1", [id])).rowCount).toBe(0);
  });

  it("a write without an actor is made but not logged", async () => {
    const id = await audited(database.db, undefined, "payment_account", async (tx, audit) => {
      const [row] = await tx.insert(paymentAccounts).values({ paypalEmail: "system@example.org" }).returning();
      await audit.created(row!.id, { paypalEmail: "system@example.org" });
      return row!.id;
    });
    expect(await entries(id)).toEqual([]);
    expect((await database.pool.query("select 1 from payment_accounts where id = $1", [id])).rowCount).toBe(1);
  });
});
