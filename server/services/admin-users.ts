import { asc, eq, sql } from "drizzle-orm";
import type { Db } from "../db/client";
import { adminUsers } from "../db/schema";
import { isId, notFound } from "../lib/errors";

export type AdminUserRecord = { _id: string; userEmail: string; userRole: "Admin" };

const toRecord = (r: typeof adminUsers.$inferSelect): AdminUserRecord => ({
  _id: r.id,
  userEmail: r.userEmail,
  userRole: r.userRole as "Admin",
});

/** The admin list (spec 2: userEmail, userRole 'Admin'). */
export function createAdminUsersService(db: Db) {
  return {
    async list(): Promise<AdminUserRecord[]> {
      return (await db.select().from(adminUsers).orderBy(asc(adminUsers.createdAt))).map(toRecord);
    },
    async get(id: string): Promise<AdminUserRecord> {
      if (!isId(id)) throw notFound();
      const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, id));
      if (!row) throw notFound();
      return toRecord(row);
    },
    async isListed(email: string): Promise<boolean> {
      const rows = await db
        .select({ id: adminUsers.id })
        .from(adminUsers)
        .where(sql`lower(${adminUsers.userEmail}) = lower(${email}) and ${adminUsers.userRole} = 'Admin'`)
        .limit(1);
      return rows.length > 0;
    },
    async add(email: string): Promise<string> {
      const [row] = await db
        .insert(adminUsers)
        .values({ userEmail: email, userRole: "Admin" })
        .returning({ id: adminUsers.id });
      return row!.id;
    },
    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(adminUsers);
      return row?.n ?? 0;
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
