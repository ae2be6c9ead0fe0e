import { randomBytes, randomUUID } from "node:crypto";
import { and, eq, sql } from "drizzle-orm";
import { inviteSchema } from "#domain/staff-forms.ts";
import { parseWith } from "#domain/validation.ts";
import type { AdminRole } from "#domain/vocabulary.ts";
import type { Db } from "../db/client";
import { account, adminUsers, session, user, verification } from "../db/schema";
import { badRequest, conflict } from "../lib/errors";
import { audited, type Actor } from "./activity";
import type { MailsService } from "./mails";

/** How long an invitation's set-password link works. */
export const INVITE_DAYS = 7;

/**
 * Inviting someone to the staff (decision 036). The invitation is the admin list's record plus one mail. An address
 * with no account, or with an account whose email was never confirmed, gets an account nobody can sign in to (no
 * password; an unconfirmed account's password and sessions are dropped, since anyone may have registered the address)
 * and a link to choose its password: better-auth's own reset-password token, valid for INVITE_DAYS, so the page
 * that sets it is the one password reset already uses. Only the mailbox's owner can follow the link, which is why the
 * account counts as confirmed. A confirmed account is told it may sign in.
 */
export function createStaffService({
  db,
  mails,
  publicUrl,
  now = () => new Date(),
}: {
  db: Db;
  mails: Pick<MailsService, "queue">;
  publicUrl: string;
  now?: () => Date;
}) {
  return {
    async invite(input: unknown, actor: Actor): Promise<{ id: string; setPassword: boolean }> {
      const parsed = parseWith(inviteSchema, input ?? {});
      if (!parsed.ok) throw badRequest(parsed.errors);
      const { userEmail, userRole } = parsed.data;
      return audited(db, actor, "admin_user", async (tx, audit) => {
        await tx.execute(sql`select pg_advisory_xact_lock(hashtext('admin_users'))`);
        const [listed] = await tx
          .select({ id: adminUsers.id })
          .from(adminUsers)
          .where(sql`lower(${adminUsers.userEmail}) = ${userEmail}`);
        if (listed) throw conflict("This address is on the staff already: change its role instead.");

        const [existing] = await tx
          .select({ id: user.id, verified: user.emailVerified })
          .from(user)
          .where(sql`lower(${user.email}) = ${userEmail}`);
        let userId = existing?.id;
        const setPassword = !existing?.verified;
        if (!existing) {
          userId = randomUUID();
          await tx.insert(user).values({ id: userId, email: userEmail, name: "", emailVerified: true });
        } else if (!existing.verified) {
          await tx.delete(account).where(and(eq(account.userId, existing.id), eq(account.providerId, "credential")));
          await tx.delete(session).where(eq(session.userId, existing.id));
          await tx.update(user).set({ emailVerified: true, updatedAt: now() }).where(eq(user.id, existing.id));
        }

        // The sign-in page in staff words (issue 33, item 14: no customer's "Sign Up").
        let url = `${publicUrl}/login?for=staff`;
        if (setPassword) {
          const token = randomBytes(24).toString("base64url");
          await tx.insert(verification).values({
            id: randomUUID(),
            identifier: `reset-password:${token}`,
            value: userId!,
            expiresAt: new Date(now().getTime() + INVITE_DAYS * 24 * 60 * 60 * 1000),
          });
          url = `${publicUrl}/api/auth/reset-password/${token}?callbackURL=${encodeURIComponent("/staff/welcome")}`;
        }

        const [row] = await tx
          .insert(adminUsers)
          .values({ userEmail, userRole: userRole as AdminRole })
          .returning({ id: adminUsers.id });
        await audit.created(row!.id, { userEmail, userRole });
        await mails.queue(
          tx,
          "staffInvite",
          { role: userRole, invitedBy: actor.email, url, setPassword },
          userEmail,
          `staff-invite:${row!.id}`,
        );
        return { id: row!.id, setPassword };
      });
    },
  };
}

export type StaffService = ReturnType<typeof createStaffService>;
