import { asc, eq, sql } from "drizzle-orm";
import { z } from "zod";
import { parseWith } from "#domain/validation.ts";
import { emailAddress } from "#domain/fields.ts";
import { adminRoles, type AdminRole } from "#domain/vocabulary.ts";
import { roleSchema } from "#domain/staff-forms.ts";
import { LAST_ADMIN_DELETE, STAFF_NOT_ERASED, type Person } from "#domain/privacy.ts";
import { audited, type Actor } from "./activity";
import type { Db } from "../db/client";
import { adminUsers, user } from "../db/schema";
import { AppError, badRequest, conflict, isId, notFound } from "../lib/errors";
import { withDeps } from "../lib/with-deps";

const schema = z.object({
  userEmail: emailAddress("Admin email").transform((v) => v.toLowerCase()),
  userRole: z
    .enum(adminRoles.values, { error: `Choose a role: ${adminRoles.sentence()}` })
    .optional()
    .default("Admin"),
});

type Tx = Parameters<Parameters<Db["transaction"]>[0]>[0];

const LAST_ADMIN = "The last admin cannot be removed or made an Editor: make someone else an Admin first.";

export type AdminUserRecord = { _id: string; userEmail: string; userRole: AdminRole };

const toRecord = (r: typeof adminUsers.$inferSelect): AdminUserRecord => ({
  _id: r.id,
  userEmail: r.userEmail,
  userRole: r.userRole,
});

interface AdminUsersDeps {
  db: Db;
}

/** Serialises the changes to the admin list (the last Admin's guard reads the list under it). */
async function lockList(tx: Pick<Tx, "execute">) {
  await tx.execute(sql`select pg_advisory_xact_lock(hashtext('admin_users'))`);
}

/** How many Admins the list holds. */
async function adminCount(tx: Tx): Promise<number> {
  const [{ n }] = (await tx
    .select({ n: sql<number>`count(*)::int` })
    .from(adminUsers)
    .where(eq(adminUsers.userRole, "Admin"))) as [{ n: number }];
  return n;
}

/** A staff member's row, locked for the transaction's change; 404 if it is not there. */
async function lockedRow(tx: Tx, id: string) {
  const [before] = await tx.select().from(adminUsers).where(eq(adminUsers.id, id)).for("update");
  if (!before) throw notFound();
  return before;
}

/** Refuses a change that would leave no Admin (called under the admin_users lock, before taking one away). */
async function lastAdminGuard(tx: Tx) {
  const n = await adminCount(tx);
  if (n <= 1) throw conflict(LAST_ADMIN);
}

async function list({ db }: AdminUsersDeps): Promise<AdminUserRecord[]> {
  return (await db.select().from(adminUsers).orderBy(asc(adminUsers.createdAt))).map(toRecord);
}

async function get({ db }: AdminUsersDeps, id: string): Promise<AdminUserRecord> {
  if (!isId(id)) throw notFound();
  const [row] = await db.select().from(adminUsers).where(eq(adminUsers.id, id));
  if (!row) throw notFound();
  return toRecord(row);
}

async function isListed(deps: AdminUsersDeps, email: string): Promise<boolean> {
  return (await roleOf(deps, email)) === "Admin";
}

/** The staff role listed for an address, or null. */
async function roleOf({ db }: AdminUsersDeps, email: string): Promise<AdminRole | null> {
  const [row] = await db
    .select({ role: adminUsers.userRole })
    .from(adminUsers)
    .where(sql`lower(${adminUsers.userEmail}) = lower(${email})`)
    .limit(1);
  return row?.role ?? null;
}

async function add({ db }: AdminUsersDeps, email: string): Promise<string> {
  const [row] = await db
    .insert(adminUsers)
    .values({ userEmail: email, userRole: "Admin" })
    .returning({ id: adminUsers.id });
  return row!.id;
}

/**
 * The admin list holds one record (spec 2: with one user, only its edit link shows). Adding another answers 409.
 * An address without a confirmed account is refused: nobody could sign in as admin any more.
 */
async function create(deps: AdminUsersDeps, input: unknown, actor: Actor): Promise<string> {
  const data = await checked(deps, input);
  return audited(deps.db, actor, "admin_user", async (tx, audit) => {
    await lockList(tx);
    const n = await adminCount(tx);
    if (n >= 1) throw conflict("An admin user already exists: edit it instead, or invite staff on the users screen.");
    const [row] = await tx.insert(adminUsers).values(data).returning({ id: adminUsers.id });
    await audit.created(row!.id, data);
    return row!.id;
  });
}

async function update(deps: AdminUsersDeps, id: string, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
  if (!isId(id)) throw notFound();
  const data = await checked(deps, input);
  return audited(deps.db, actor, "admin_user", async (tx, audit) => {
    await lockList(tx);
    const before = await lockedRow(tx, id);
    if (before.userEmail.toLowerCase() === data.userEmail && before.userRole === data.userRole)
      return { modified: false };
    if (before.userRole === "Admin" && data.userRole !== "Admin") await lastAdminGuard(tx);
    await tx
      .update(adminUsers)
      .set({ ...data, updatedAt: new Date() })
      .where(eq(adminUsers.id, id));
    await audit.updated(id, { userEmail: before.userEmail, userRole: before.userRole }, data);
    return { modified: true };
  });
}

async function checked({ db }: AdminUsersDeps, input: unknown) {
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
}

/** Changes a staff member's role; the last Admin stays an Admin. */
async function setRole(
  { db }: AdminUsersDeps,
  id: string,
  input: unknown,
  actor: Actor,
): Promise<{ modified: boolean }> {
  if (!isId(id)) throw notFound();
  const parsed = parseWith(roleSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const { userRole } = parsed.data;
  return audited(db, actor, "admin_user", async (tx, audit) => {
    await lockList(tx);
    const before = await lockedRow(tx, id);
    if (before.userRole === userRole) return { modified: false };
    if (before.userRole === "Admin") await lastAdminGuard(tx);
    await tx.update(adminUsers).set({ userRole, updatedAt: new Date() }).where(eq(adminUsers.id, id));
    await audit.updated(id, { userRole: before.userRole }, { userRole });
    return { modified: true };
  });
}

/** Takes someone off the staff (their account stays, as a customer's); the last Admin cannot be removed. */
async function remove({ db }: AdminUsersDeps, id: string, actor: Actor): Promise<void> {
  if (!isId(id)) throw notFound();
  await audited(db, actor, "admin_user", async (tx, audit) => {
    await lockList(tx);
    const before = await lockedRow(tx, id);
    if (before.userRole === "Admin") await lastAdminGuard(tx);
    await tx.delete(adminUsers).where(eq(adminUsers.id, id));
    await audit.deleted(id, { userEmail: before.userEmail, userRole: before.userRole });
  });
}

async function count({ db }: AdminUsersDeps): Promise<number> {
  const [row] = await db.select({ n: sql<number>`count(*)::int` }).from(adminUsers);
  return row?.n ?? 0;
}

/** The admin list (spec 2: userEmail, userRole): the staff, each an Admin or an Editor. */
export function createAdminUsersService(deps: AdminUsersDeps) {
  return {
    list: withDeps(deps, list),
    get: withDeps(deps, get),
    isListed: withDeps(deps, isListed),
    roleOf: withDeps(deps, roleOf),
    add: withDeps(deps, add),
    create: withDeps(deps, create),
    update: withDeps(deps, update),
    checked: withDeps(deps, checked),
    setRole: withDeps(deps, setRole),
    remove: withDeps(deps, remove),
    count: withDeps(deps, count),
  };
}

export type AdminUsersService = ReturnType<typeof createAdminUsersService>;

/**
 * Once an account's address has become `newEmail` (its owner confirmed it: better-auth's /verify-email): its staff
 * listing (keyed by email) moves with it, audited as the person's own change. It reads what is stored, so it does
 * nothing for a change that did not happen, and may run again safely (following the link again finishes a move that
 * failed half-way).
 */
export async function followEmailChange(db: Db, userId: string, oldEmail: string, newEmail: string): Promise<void> {
  const from = oldEmail.toLowerCase();
  const to = newEmail.toLowerCase();
  await audited(db, { id: userId, email: to }, "admin_user", async (tx, audit) => {
    const [person] = await tx.select({ email: user.email }).from(user).where(eq(user.id, userId));
    if (!person || person.email.toLowerCase() !== to) return;
    await lockList(tx);
    const [listed] = await tx
      .select({ id: adminUsers.id })
      .from(adminUsers)
      .where(sql`lower(${adminUsers.userEmail}) = ${from}`)
      .for("update");
    if (!listed) return;
    await tx.update(adminUsers).set({ userEmail: to, updatedAt: new Date() }).where(eq(adminUsers.id, listed.id));
    await audit.updated(listed.id, { userEmail: from }, { userEmail: to });
  });
}

/**
 * An erased person leaves the staff (decisions 045, 086), under the admin list's lock (staff are listed by their
 * account's current address, the Person's first): a staff member deleting their
 * own account is taken off it, unless they are the last Admin (409); the back office never erases staff (`ownAccount`
 * false: 409, remove them on the users screen first).
 */
export async function forgetStaffMember(tx: Tx, person: Person, ownAccount: boolean): Promise<void> {
  await lockList(tx);
  const [listed] = await tx
    .select({ id: adminUsers.id, role: adminUsers.userRole })
    .from(adminUsers)
    .where(sql`lower(${adminUsers.userEmail}) = ${person.emails[0] ?? ""}`);
  if (!listed) return;
  if (!ownAccount) throw conflict(STAFF_NOT_ERASED);
  if (listed.role === "Admin" && (await adminCount(tx)) <= 1) throw conflict(LAST_ADMIN_DELETE);
  await tx.delete(adminUsers).where(eq(adminUsers.id, listed.id));
}
