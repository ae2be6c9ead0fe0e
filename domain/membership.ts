/**
 * Membership rules (spec 1, section 4), as pure functions of a customer's orders and the current time.
 * Every screen and every server check asks these; nothing else decides who is a member.
 */
import { dayKey } from "./dates";
import type { OrderStatus, PaymentStatus, Tone } from "./vocabulary";

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
  /** Payment received, waiting for activation: a Paid order the studio has not yet set Delivered. */
  | { state: "waiting"; packageName: string }
  | { state: "active"; packageName: string; expiresAt: Date; daysLeft: number };

export const DAY_MS = 86_400_000;

/**
 * Whether an order's payment was received and its membership waits for the studio to activate it (set Delivered):
 * Paid, still Pending, and its validity not already over.
 */
export function awaitsActivation(
  o: Pick<MembershipOrder, "paymentStatus" | "orderStatus" | "membershipValid">,
  now: Date,
): boolean {
  return (
    o.paymentStatus === "Paid" &&
    o.orderStatus === "Pending" &&
    (o.membershipValid === null || o.membershipValid.getTime() > now.getTime())
  );
}

/**
 * From the customer's own orders (spec 1, section 4: those both Paid and Delivered count): one whose validity is still
 * in the future makes the membership active (the latest expiry wins). Without one, a paid order waiting for the studio's
 * activation makes it "waiting" (never "no membership" to someone who has paid); else Paid and Delivered orders whose
 * validity is over make it expired, and nothing is none. Admins have full access.
 */
export function membershipOf(orders: readonly MembershipOrder[], now: Date, isAdmin = false): Membership {
  if (isAdmin) return { state: "admin" };
  const counted = orders.filter((o) => o.paymentStatus === "Paid" && o.orderStatus === "Delivered");
  const waiting = orders.find((o) => awaitsActivation(o, now));
  const inactive = (): Membership =>
    waiting
      ? { state: "waiting", packageName: waiting.packageName }
      : counted.length
        ? { state: "expired" }
        : { state: "none" };
  if (counted.length === 0) return inactive();
  let best: MembershipOrder | undefined;
  for (const o of counted) {
    if (o.membershipValid && o.membershipValid.getTime() > now.getTime()) {
      if (!best || o.membershipValid.getTime() > best.membershipValid!.getTime()) best = o;
    }
  }
  if (!best) return inactive();
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

/**
 * The admin orders badge: 'Awaiting Activation' for a paid order not yet Delivered; 'Active Member' or 'Expired' for
 * delivered paid orders with a date; otherwise 'Inactive'.
 */
export function memberBadge(
  o: Pick<MembershipOrder, "paymentStatus" | "orderStatus" | "membershipValid">,
  now: Date,
): "Active Member" | "Awaiting Activation" | "Expired" | "Inactive" {
  if (awaitsActivation(o, now)) return "Awaiting Activation";
  if (o.paymentStatus !== "Paid" || !o.membershipValid) return "Inactive";
  return o.membershipValid.getTime() > now.getTime() ? "Active Member" : "Expired";
}

export type MemberBadge = ReturnType<typeof memberBadge>;
/** The colour of each badge. */
const BADGE_TONES: Record<MemberBadge, Tone> = {
  "Active Member": "green",
  "Awaiting Activation": "amber",
  Expired: "red",
  Inactive: "grey",
};
export const memberBadgeTone = (badge: MemberBadge): Tone => BADGE_TONES[badge];

/** What a customer's order row offers (spec 1, section 4). */
export type RowAction =
  | { kind: "pay"; href: string }
  | { kind: "expires"; date: Date }
  /** Paid, waiting for the studio's activation. */
  | { kind: "waiting" }
  | { kind: "membership-expired" }
  | { kind: "cancelled" }
  | { kind: "refunded" }
  | { kind: "paid" };

export function rowAction(
  o: Pick<MembershipOrder, "paymentStatus" | "orderStatus" | "membershipValid"> & { id: string },
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
      if (awaitsActivation(o, now)) return { kind: "waiting" };
      if (!o.membershipValid) return { kind: "paid" };
      // 'Expires At {date}' while the validity date is today or later, by calendar date.
      return dayKey(o.membershipValid, timeZone) >= dayKey(now, timeZone)
        ? { kind: "expires", date: o.membershipValid }
        : { kind: "membership-expired" };
  }
}

/** What a customer is told while a paid order waits for activation (one wording on every screen that says it). */
export const WAITING_TEXTS = {
  title: "Payment received, waiting for activation",
  row: "Payment received · waiting for activation",
  short: "Waiting for activation",
  next: "The studio activates your membership shortly, and your items open on your dashboard as soon as it is active. There is nothing more for you to do.",
} as const;
