import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { parseWith } from "../../domain/validation";
import { emailAddress } from "../../domain/fields";
import { adminRoles, type AdminRole } from "../../domain/vocabulary";
import { audited, type Actor } from "./activity";
import type { Db } from "../db/client";
import { adminUsers, user } from "../db/schema";
import { AppError, badRequest, conflict, isId, notFound } from "../lib/errors";

const schema = z.object({
  userEmail: emailAddress("Admin email").transform((v) => v.toLowerCase()),
  userRole: z.enum(adminRoles.values, { error: "The only role is Admin" }).optional().default("Admin"),
});

export type AdminUserRecord = { _id: string; userEmail: string; userRole: AdminRole };

const toRecord = (r: typeof adminUsers.$inferSelect): AdminUserRecord => ({
  _id: r.id,
  userEmail: r.userEmail,
  userRole: r.userRole,
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
    /**
     * The admin list holds one record (spec 2: with one user, only its edit link shows). Adding another answers 409.
     * An address without a confirmed account is refused: nobody could sign in as admin any more.
     */
    async create(input: unknown, actor: Actor): Promise<string> {
      const data = await this.checked(input);
      return audited(db, actor, "admin_user", async (tx, audit) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('admin_users'))`);
        const [{ n }] = (await tx.select({ n: sql<number>`count(*)::int` }).from(adminUsers)) as [{ n: number }];
        if (n >= 1) throw conflict("An admin user already exists: edit it instead.");
        const [row] = await tx.insert(adminUsers).values(data).returning({ id: adminUsers.id });
        await audit.created(row!.id, data);
        return row!.id;
      });
    },

    async update(id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
      if (!isId(id)) throw notFound();
      const data = await this.checked(input);
      return audited(db, actor, "admin_user", async (tx, audit) => {
        const [before] = await tx.select().from(adminUsers).where(eq(adminUsers.id, id)).for("update");
        if (!before) throw notFound();
        if (before.userEmail.toLowerCase() === data.userEmail && before.userRole === data.userRole)
          return { modified: false };
        await tx
          .update(adminUsers)
          .set({ ...data, updatedAt: new Date() })
          .where(eq(adminUsers.id, id));
        await audit.updated(id, { userEmail: before.userEmail, userRole: before.userRole }, data);
        return { modified: true };
      });
    },

    async checked(input: unknown) {
      const parsed = parseWith(schema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const [account] = await db
        .select({ verified: user.emailVerified })
        .from(user)
        .where(sql`lower(${user.email}) = ${parsed.data.userEmail}`);
      if (!account?.verified) {
        throw new AppError(
          400,
          "No account with a confirmed email has this address. Ask the person to register and confirm their email first.",
          [{ field: "userEmail", message: "No account with a confirmed email has this address." }],
        );
      }
      return parsed.data;
    },

    async count(): Promise<number> {
      const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(adminUsers);
      return row?.n ?? 0;
    },
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;
