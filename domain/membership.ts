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
  /** The end of the order's window in the customer's timeline (null: it gives no day). */
  membershipValid: Date | null;
  /** The start of that window (absent where a caller only has the end). */
  membershipStarts?: Date | null;
}

export type Membership =
  | { state: "admin" }
  | { state: "none" }
  | { state: "expired" }
  /** Payment received, waiting for activation: a Paid order the studio has not yet set Delivered. */
  | { state: "waiting"; packageName: string }
  | { state: "active"; packageName: string; expiresAt: Date; daysLeft: number };

export const DAY_MS = 86_400_000;

// ── The membership timeline ─────────────────────────────────────────────────────────────────────────────────────

/** What the timeline reads of an order. */
export interface TimelineOrder {
  id: string;
  paymentStatus: PaymentStatus;
  orderStatus: OrderStatus;
  packageValidity: number;
  paidAt: Date | null;
  deliveredAt: Date | null;
  /** When it was placed: breaks a tie between two orders activated at the same instant. */
  createdAt: Date;
}

/** One order's days: from `starts` (inclusive) to `ends` (exclusive). */
export interface MembershipWindow {
  orderId: string;
  starts: Date;
  ends: Date;
}

/**
 * Whether an order gives days: Paid and Delivered (spec 1, section 4). A paid order the studio has not delivered waits,
 * and uses none of its days while it waits; a refunded, reversed, cancelled or unpaid order gives none.
 */
export const countsForMembership = (o: Pick<TimelineOrder, "paymentStatus" | "orderStatus">) =>
  o.paymentStatus === "Paid" && o.orderStatus === "Delivered";

/** When an order that counts started counting: the later of its payment and its delivery. */
export function activationOf(o: Pick<TimelineOrder, "paidAt" | "deliveredAt" | "createdAt">): Date {
  const paid = o.paidAt ?? o.createdAt;
  const delivered = o.deliveredAt ?? paid;
  return delivered.getTime() > paid.getTime() ? delivered : paid;
}

/**
 * A customer's membership windows, from all their orders: the orders that count, in the order they were activated
 * (ties: placed first, then id), laid end to end: each starts at its activation or when the one before it ends,
 * whichever is later, and lasts its validity in days. Windows never overlap, and the days granted are exactly the sum
 * of the validities of the orders that count: a refund or a cancellation removes its order's days and moves the later
 * windows up. The same orders always give the same windows.
 */
export function membershipTimeline(orders: readonly TimelineOrder[]): MembershipWindow[] {
  const counted = orders
    .filter(countsForMembership)
    .map((o) => ({ o, at: activationOf(o).getTime() }))
    .sort(
      (a, b) =>
        a.at - b.at ||
        a.o.createdAt.getTime() - b.o.createdAt.getTime() ||
        (a.o.id < b.o.id ? -1 : a.o.id > b.o.id ? 1 : 0),
    );
  const windows: MembershipWindow[] = [];
  let end = Number.NEGATIVE_INFINITY;
  for (const { o, at } of counted) {
    const starts = Math.max(at, end);
    end = starts + o.packageValidity * DAY_MS;
    windows.push({ orderId: o.id, starts: new Date(starts), ends: new Date(end) });
  }
  return windows;
}

/**
 * Whether an order's payment was received and its membership waits for the studio to activate it (set Delivered):
 * Paid and still Pending. Its days start when it is delivered.
 */
export function awaitsActivation(o: Pick<MembershipOrder, "paymentStatus" | "orderStatus">): boolean {
  return o.paymentStatus === "Paid" && o.orderStatus === "Pending";
}

/**
 * From the customer's own orders and their windows (spec 1, section 4: those both Paid and Delivered count): a window
 * holding `now` makes the membership active, shown with the latest expiry (later windows follow it without a gap).
 * Without one, a paid order waiting for the studio's activation makes it "waiting" (never "no membership" to someone who
 * has paid); else Paid and Delivered orders whose windows are over make it expired, and nothing is none. Admins have
 * full access.
 */
export function membershipOf(orders: readonly MembershipOrder[], now: Date, isAdmin = false): Membership {
  if (isAdmin) return { state: "admin" };
  const t = now.getTime();
  const counted = orders.filter(countsForMembership);
  const current = counted.some(
    (o) =>
      o.membershipValid &&
      o.membershipValid.getTime() > t &&
      (o.membershipStarts == null || o.membershipStarts.getTime() <= t),
  );
  let best: MembershipOrder | undefined;
  if (current)
    for (const o of counted)
      if (o.membershipValid && (!best || o.membershipValid.getTime() > best.membershipValid!.getTime())) best = o;
  if (best) {
    return {
      state: "active",
      packageName: best.packageName,
      expiresAt: best.membershipValid!,
      daysLeft: daysLeft(best.membershipValid!, now),
    };
  }
  // The first one in the order given: callers pass orders oldest first (placement, then id), so it is always the same.
  const waiting = orders.find(awaitsActivation);
  if (waiting) return { state: "waiting", packageName: waiting.packageName };
  return counted.length ? { state: "expired" } : { state: "none" };
}

/** Whether a membership lets its holder open catalogue items. */
export const hasAccess = (m: Membership) => m.state === "active" || m.state === "admin";

/** Days from now to the expiry, rounded up (a few hours left is one day). */
export function daysLeft(expiresAt: Date, now: Date): number {
  return Math.max(0, Math.ceil((expiresAt.getTime() - now.getTime()) / DAY_MS));
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
  if (awaitsActivation(o)) return "Awaiting Activation";
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
      if (awaitsActivation(o)) return { kind: "waiting" };
      if (!o.membershipValid) return { kind: "paid" };
      // 'Expires At {date}' while the validity date is today or later, by calendar date.
      return dayKey(o.membershipValid, timeZone) >= dayKey(now, timeZone)
        ? { kind: "expires", date: o.membershipValid }
        : { kind: "membership-expired" };
  }
}

/** What a customer reads for days the studio gave (a zero-price order): given, not paid. */
export const GIVEN_TEXTS = { status: "Given", action: "Given by the studio", amount: "No charge" } as const;

/** What a customer is told while a paid order waits for activation (one wording on every screen that says it). */
export const WAITING_TEXTS = {
  title: "Payment received, waiting for activation",
  row: "Payment received · waiting for activation",
  short: "Waiting for activation",
  next: "The studio activates your membership shortly, and your items open on your dashboard as soon as it is active. There is nothing more for you to do.",
} as const;
