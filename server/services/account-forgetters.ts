import { eq, sql } from "drizzle-orm";
import { erasedEmail, type Person } from "#domain/privacy.ts";
import { account, customerNotes, customerTotals, session, user, verification } from "../db/schema";
import type { Tx } from "./jobs";

/**
 * The forgetters (decision 086) of the stores the accounts and customers services own: better-auth's tables
 * (`user`, `session`, `account`, `verification`) and the customer record's (`customer_notes`, `customer_totals`).
 * They live in a file of their own, beside accounts.ts and customers.ts, so that each module's forgetting stays with
 * the module and neither service's commands are touched by it.
 */

/**
 * Signing in: every session (every device), the password, and every pending link (a reset, an email change, a
 * trusted device) whose value holds their id or any of their addresses, or whose identifier holds an address.
 */
export async function forgetSignIn(tx: Tx, person: Person): Promise<void> {
  await tx.delete(session).where(eq(session.userId, person.userId));
  await tx.delete(account).where(eq(account.userId, person.userId));
  await tx.delete(verification).where(
    sql`position(${person.userId} in ${verification.value}) > 0
      or exists (select 1 from unnest(${sql.param(person.emails)}::text[]) as e(email)
                 where position(e.email in lower(${verification.identifier})) > 0
                    or position(e.email in lower(${verification.value})) > 0)`,
  );
}

/**
 * The account row stays as the erased orders' owner (their membership windows stay one customer's, decision 045), with
 * nothing of the person: no name, the placeholder address (`<id>@erased.invalid`), not confirmed, no picture, no second
 * factor. Run last: the other forgetters read nothing from it, and `isErasedAddress` tells an erased account by it.
 */
export async function forgetAccount(tx: Tx, person: Person, at: Date): Promise<void> {
  await tx
    .update(user)
    .set({
      name: "",
      email: erasedEmail(person.userId),
      emailVerified: false,
      image: null,
      twoFactorEnabled: false,
      updatedAt: at,
    })
    .where(eq(user.id, person.userId));
}

/**
 * The customer record: the staff's private note goes; the figures are marked erased (decision 063) so that no list,
 * count or filter takes them for a member, keeping the money; the orders' triggers keep the membership columns empty.
 */
export async function forgetCustomerRecord(tx: Tx, person: Person): Promise<void> {
  await tx.delete(customerNotes).where(eq(customerNotes.userId, person.userId));
  await tx
    .insert(customerTotals)
    .values({ userId: person.userId, erased: true })
    .onConflictDoUpdate({
      target: customerTotals.userId,
      set: { erased: true, membershipEnds: null, waiting: 0 },
    });
}
