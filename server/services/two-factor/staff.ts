import { eq, sql } from "drizzle-orm";
import type { Db } from "#server/db/client.ts";
import { adminUsers, session, twoFactor, user } from "#server/db/schema.ts";
import { conflict, isId, notFound } from "#server/lib/errors.ts";
import { audited, type Actor } from "../activity";
import { forgetTrustedDevicesTx } from "./enrolment";
import type { TwoFactorContext } from "./model";

/** Sessions and trusted devices of a person end (a reset: they enrol again at their next sign-in). */
async function endSessions(tx: Parameters<Parameters<Db["transaction"]>[0]>[0], userId: string) {
  await tx.delete(session).where(eq(session.userId, userId));
  await forgetTrustedDevicesTx(tx, userId);
}

/** Whether a staff member (the admin list's record) has two-factor sign-in on (false for an unknown record). */
export async function enabledForStaff({ db }: TwoFactorContext, staffId: string): Promise<boolean> {
  if (!isId(staffId)) return false;
  const [row] = await db
    .select({ enabled: user.twoFactorEnabled })
    .from(adminUsers)
    .innerJoin(user, sql`lower(${user.email}) = lower(${adminUsers.userEmail})`)
    .where(eq(adminUsers.id, staffId))
    .limit(1);
  return row?.enabled ?? false;
}

/**
 * An Admin resets a staff member's second factor (a lost phone): the key and codes are deleted, two-factor sign-in
 * is off, every session of theirs ends, and the activity log says who did it. `staffId` is the admin list's record.
 * While the requirement is on, they are walked through enrolling again at their next sign-in.
 */
export async function resetForStaff({ db, now }: TwoFactorContext, staffId: string, actor: Actor): Promise<void> {
  if (!isId(staffId)) throw notFound("Staff member not found");
  await audited(db, actor, "admin_user", async (tx, audit) => {
    const [person] = await tx
      .select({ userId: user.id, enabled: user.twoFactorEnabled, row: twoFactor.id })
      .from(adminUsers)
      .innerJoin(user, sql`lower(${user.email}) = lower(${adminUsers.userEmail})`)
      .leftJoin(twoFactor, eq(twoFactor.userId, user.id))
      .where(eq(adminUsers.id, staffId))
      .limit(1);
    if (!person) throw notFound("Staff member not found");
    if (!person.enabled && !person.row) throw conflict("Two-factor sign-in is not on for this person.");
    await tx.delete(twoFactor).where(eq(twoFactor.userId, person.userId));
    await tx.update(user).set({ twoFactorEnabled: false, updatedAt: now() }).where(eq(user.id, person.userId));
    await endSessions(tx, person.userId);
    await audit.updated(staffId, { twoFactorSignIn: "on" }, { twoFactorSignIn: "reset" });
  });
}
