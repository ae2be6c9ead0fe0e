/**
 * Membership rules (spec 1, section 4), as pure functions of a customer's orders and the current time.
 * Every screen and every server check asks these; nothing else decides who is a member.
 */
import { dayKey } from "./dates";
import type { OrderStatus, PaymentStatus } from "./vocabulary";

export interface MembershipOrder {
  packageName: string;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  membershipValid: Date | null;
}

export type Membership =
  | { state: "admin" }
  | { state: "none" }
  | { state: "expired" }
  | { state: "active"; packageName: string; expiresAt: Date; daysLeft: number };

export const DAY_MS = 86_400_000;

/**
 * From the customer's own orders that are both Paid and Delivered: none such is no membership; one whose validity is
 * still in the future makes it active (the latest expiry wins); otherwise it has expired. Admins have full access.
 */
export function membershipOf(orders: readonly MembershipOrder[], now: Date, isAdmin = false): Membership {
  if (isAdmin) return { state: "admin" };
  const counted = orders.filter((o) => o.paymentStatus === "Paid" && o.orderStatus === "Delivered");
  if (counted.length === 0) return { state: "none" };
  let best: MembershipOrder | undefined;
  for (const o of counted) {
    if (o.membershipValid && o.membershipValid.getTime() > now.getTime()) {
      if (!best || o.membershipValid.getTime() > best.membershipValid!.getTime()) best = o;
    }
  }
  if (!best) return { state: "expired" };
  return {
    state: "active",
    packageName: best.packageName,
    expiresAt: best.membershipValid!,
    daysLeft: daysLeft(best.membershipValid!, now),
  };
}

/** Whether a membership lets its holder open catalogue items. */
export const hasAccess = (m: Membership) => m.state === "active" || m.state === "admin";

/** Days from now to the expiry, rounded up (a few hours left is one day). */
export function daysLeft(expiresAt: Date, now: Date): number {
  return Math.max(0, Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS));
}

/**
 * When an order becomes Paid: the validity runs from the later of now and the customer's latest unexpired
 * membership, so a renewal bought early adds to the time already paid for.
 */
export function nextMembershipValid(existing: readonly (Date | null)[], now: Date, validityDays: number): Date {
  let start = now.getTime();
  for (const d of existing) if (d && d.getTime() > start) start = d.getTime();
  return new Date(start + validityDays * DAY_MS);
}

/** The order row's validity marker: Active, Expired, or Not Set. */
export function validityMarker(membershipValid: Date | null, now: Date): "Active" | "Expired" | "Not Set" {
  if (!membershipValid) return "Not Set";
  return membershipValid.getTime() > now.getTime() ? "Active" : "Expired";
}

/** The admin orders badge: 'Active Member' or 'Expired' for paid orders with a date, otherwise 'Inactive'. */
export function memberBadge(
  o: Pick<MembershipOrder, "paymentStatus" | "membershipValid">,
  now: Date,
): "Active Member" | "Expired" | "Inactive" {
  if (o.paymentStatus !== "Paid" || !o.membershipValid) return "Inactive";
  return o.membershipValid.getTime() > now.getTime() ? "Active Member" : "Expired";
}

/** What a customer's order row offers (spec 1, section 4). */
export type RowAction =
  | { kind: "pay"; href: string }
  | { kind: "expires"; date: Date }
  | { kind: "membership-expired" }
  | { kind: "cancelled" }
  | { kind: "refunded" }
  | { kind: "paid" };

export function rowAction(
  o: Pick<MembershipOrder, "paymentStatus" | "membershipValid"> & { id: string },
  now: Date,
  timeZone: string,
): RowAction {
  switch (o.paymentStatus) {
    case "UnPaid":
      return { kind: "pay", href: `/pay-now/${o.id}` };
    case "Cancelled":
      return { kind: "cancelled" };
    case "Refunded":
      return { kind: "refunded" };
    case "Paid":
      if (!o.membershipValid) return { kind: "paid" };
      // 'Expires At {date}' while the validity date is today or later, by calendar date.
      return dayKey(o.membershipValid, timeZone) >= dayKey(now, timeZone)
        ? { kind: "expires", date: o.membershipValid }
        : { kind: "membership-expired" };
  }
}
