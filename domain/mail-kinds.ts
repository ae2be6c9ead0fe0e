/**
 * Every mail the site sends: its kind, who receives it, whether the admin may turn it off, and the data its template
 * needs. Links are built from ids by compose (server/services/mails.ts), never passed in, so a template cannot point
 * anywhere else than the site.
 */
import type { Currency } from "./currency";

/** A date as the services have it: a Date, or an ISO string as records carry them. */
export type MailDate = Date | string;

/** What every mail about one order carries: its id (for links) and the number people read. */
export interface OrderRef {
  orderId: string;
  /** AN-2026-00123 (domain/order-number.ts): the same in every mail, page and CSV. */
  orderNumber: string;
  /** The order's currency (issue 35): its amounts are printed in it; a mail queued before it existed is in USD. */
  currency?: Currency;
}

/** A subscription's payment PayPal could not take: the subscribed order and who it is for. */
export interface SubscriptionFailure extends OrderRef {
  customerName: string;
  customerEmail: string;
  packageName: string;
  amount: number;
}

export interface MailData {
  orderPlaced: OrderRef & { customerName: string; packageName: string; amount: number };
  /**
   * An order the studio made for the customer (issue 35, part 7) and left for them to pay: the link to the pay screen,
   * the amount in the order's own currency.
   */
  payLink: OrderRef & { customerName: string; packageName: string; amount: number; currency: Currency };
  paymentReceived: OrderRef & {
    customerName: string;
    packageName: string;
    amount: number;
    paidAt: MailDate;
    /** PayPal's transaction id; null for a payment the studio marked Paid by hand. */
    txnId: string | null;
    /** True when the membership started with the payment (automatic activation). */
    activated: boolean;
    /** The order's invoice (decision 038), linked from the mail; none for an order that costs nothing. */
    invoiceNumber?: string | null;
  };
  membershipActive: OrderRef & { customerName: string; packageName: string; expiresAt: MailDate };
  membershipEndingSoon: { customerName: string; packageName: string; expiresAt: MailDate };
  /** A membership a PayPal subscription renews (decision 046): when PayPal takes the next payment, and how much. */
  membershipRenewsSoon: {
    customerName: string;
    packageName: string;
    renewsAt: MailDate;
    amount: number;
    currency?: Currency;
  };
  /** Days the agency gave (a zero-price order): how many, and the membership's end now. */
  membershipGiven: OrderRef & { customerName: string; days: number; expiresAt: MailDate };
  membershipEnded: { customerName: string; packageName: string; endedAt: MailDate };
  orderCancelled: OrderRef & { customerName: string; packageName: string; amount: number };
  paymentRefunded: OrderRef & {
    customerName: string;
    packageName: string;
    amount: number;
    /** When the customer's membership ends now that this order gives no day (null: no membership runs). */
    membershipEnds: MailDate | null;
    /** The studio's note to the customer with a refund made from the back office (decision 067). */
    note?: string | null;
    /** The credit note of the money returned (decision 073), linked from the mail; none for an order not invoiced. */
    creditNoteNumber?: string | null;
  };
  /** A part of an order's payment went back (decision 067): the order stays paid and keeps its days. */
  paymentPartlyRefunded: OrderRef & {
    customerName: string;
    packageName: string;
    /** This refund, what went back so far in all, and the order's price. */
    amount: number;
    refundedSoFar: number;
    price: number;
    note: string | null;
    /** This refund's credit note (decision 073), linked from the mail; none for an order not invoiced. */
    creditNoteNumber?: string | null;
  };
  adminPaymentWaiting: OrderRef & {
    customerName: string;
    customerEmail: string;
    packageName: string;
    amount: number;
    txnId: string | null;
  };
  /** PayPal took a payment the order could not take (decision 060: its discount code used up): refund it. */
  adminPaymentNotApplied: OrderRef & {
    customerName: string;
    customerEmail: string;
    packageName: string;
    amount: number;
    txnId: string;
    /** Why, as recorded on the payment (for the studio). */
    reason: string;
  };
  /** PayPal could not take a subscription's payment (decision 046): to the customer, and to every admin. */
  subscriptionPaymentFailed: SubscriptionFailure;
  adminSubscriptionPaymentFailed: SubscriptionFailure;
  /** An automatic renewal stopped (the customer at PayPal, or the studio): no more payments; the time paid stays. */
  subscriptionCancelled: OrderRef & {
    customerName: string;
    packageName: string;
    /** When the customer's membership ends now (null: none runs). */
    membershipEnds: MailDate | null;
  };
  adminContactMessage: {
    messageId: string;
    name: string;
    email: string;
    number: string;
    subject: string;
    message: string;
  };
  adminBackupFailed: {
    /** When the backup was started. */
    startedAt: MailDate;
    /** Why it failed, as the error said. */
    error: string;
    /** Where it was to be written (BACKUP_DIR). */
    folder: string;
    /**
     * When the backup was written on the server but its copy to the bucket failed (docs/decisions/082): the bucket
     * (s3://bucket/prefix/) and the archive's name on the server.
     */
    bucket?: string;
    written?: string;
  };
  webhookEndpointPaused: {
    endpointId: string;
    /** Its address and description, as the Admin typed them. */
    url: string;
    description: string;
    /** When its deliveries started failing for good. */
    failingSince: MailDate;
  };
  newsletterConfirm: { confirmUrl: string; unsubscribeUrl?: string };
  passwordReset: { url: string };
  verifyEmail: { url: string };
  staffInvite: {
    /** Admin or Editor. */
    role: string;
    /** Who invited them (their email). */
    invitedBy: string;
    /** The link to choose a password (a new or reclaimed account), or to sign in (an account already confirmed). */
    url: string;
    setPassword: boolean;
  };
  /** To the address a person asks to change their account's email to: the change happens when they follow `url`. */
  emailChangeConfirm: { url: string; oldEmail: string };
  /** To the account's address at the time of the request: what was asked, and what to do if it was not them. */
  emailChangeNotice: { newEmail: string };
}

export type MailKind = keyof MailData;

export interface MailKindInfo {
  /** The name in the back office's mail settings. */
  label: string;
  audience: "customer" | "admins" | "visitor";
  /** When it is sent, in one sentence. */
  when: string;
  /**
   * False for the mails an account or a signup cannot do without (a password reset, an address confirmation): they
   * are always sent, and the settings screen shows them without a switch.
   */
  canTurnOff: boolean;
}

export const MAIL_KINDS = {
  orderPlaced: {
    label: "Order placed",
    audience: "customer",
    when: "A customer places an order (with a Pay Now link).",
    canTurnOff: true,
  },
  payLink: {
    label: "Order to pay, made by the studio",
    audience: "customer",
    when: "The studio makes an order for a customer and sends them the link to pay it (with a Pay Now link).",
    canTurnOff: true,
  },
  paymentReceived: {
    label: "Payment received",
    audience: "customer",
    when: "A payment is received: a receipt with the amount, date and PayPal transaction id.",
    canTurnOff: true,
  },
  membershipActive: {
    label: "Membership active",
    audience: "customer",
    when: "An order's membership starts (the order is set Delivered).",
    canTurnOff: true,
  },
  membershipGiven: {
    label: "Membership extended by the studio",
    audience: "customer",
    when: "The studio gives or extends a customer's membership (days free of charge): its new end date.",
    canTurnOff: true,
  },
  membershipEndingSoon: {
    label: "Membership ends in 7 days",
    audience: "customer",
    when: "A member's membership ends within 7 days and no later membership follows it.",
    canTurnOff: true,
  },
  membershipRenewsSoon: {
    label: "Membership renews in 7 days",
    audience: "customer",
    when: "A member's membership ends within 7 days and a PayPal subscription renews it: the date, the amount and how to cancel.",
    canTurnOff: true,
  },
  membershipEnded: {
    label: "Membership ended",
    audience: "customer",
    when: "A member's membership has ended and no later membership follows it.",
    canTurnOff: true,
  },
  orderCancelled: {
    label: "Order cancelled",
    audience: "customer",
    when: "An unpaid order is cancelled.",
    canTurnOff: true,
  },
  paymentRefunded: {
    label: "Payment refunded",
    audience: "customer",
    when: "A paid order is refunded or its payment reversed: what the membership is now.",
    canTurnOff: true,
  },
  paymentPartlyRefunded: {
    label: "Payment partly refunded",
    audience: "customer",
    when: "A part of a paid order's payment is refunded (from the order screen or in PayPal): the order keeps its days.",
    canTurnOff: true,
  },
  adminPaymentWaiting: {
    label: "Payment waiting for delivery",
    audience: "admins",
    when: "PayPal verifies a payment and its order waits for delivery (to every admin).",
    canTurnOff: true,
  },
  adminPaymentNotApplied: {
    label: "Payment not applied",
    audience: "admins",
    when: "PayPal took a payment its order could no longer take (its discount code was used up meanwhile): to refund (to every admin).",
    canTurnOff: true,
  },
  subscriptionPaymentFailed: {
    label: "Renewal payment failed",
    audience: "customer",
    when: "PayPal could not take a membership's automatic renewal payment.",
    canTurnOff: true,
  },
  adminSubscriptionPaymentFailed: {
    label: "Renewal payment failed (studio)",
    audience: "admins",
    when: "PayPal could not take a customer's automatic renewal payment (to every admin).",
    canTurnOff: true,
  },
  subscriptionCancelled: {
    label: "Subscription cancelled",
    audience: "customer",
    when: "A membership's automatic renewal is cancelled (at PayPal, or by the studio): no more payments, and until when the membership runs.",
    canTurnOff: true,
  },
  adminContactMessage: {
    label: "New contact message",
    audience: "admins",
    when: "A visitor sends the contact form (to every admin; Reply-To is the visitor).",
    canTurnOff: true,
  },
  adminBackupFailed: {
    label: "Backup failed",
    audience: "admins",
    when: "A backup (the daily one, or one started in the back office) fails (to every admin).",
    canTurnOff: true,
  },
  webhookEndpointPaused: {
    label: "Webhook endpoint paused",
    audience: "admins",
    when: "A webhook endpoint is paused because every delivery to it failed for 5 days (to the Admin who added it).",
    canTurnOff: false,
  },
  newsletterConfirm: {
    label: "Newsletter confirmation",
    audience: "visitor",
    when: "Someone signs up for the newsletter (double opt-in).",
    canTurnOff: false,
  },
  passwordReset: {
    label: "Password reset",
    audience: "customer",
    when: "Someone asks to reset the password of an account.",
    canTurnOff: false,
  },
  verifyEmail: {
    label: "Email confirmation",
    audience: "customer",
    when: "Someone creates an account.",
    canTurnOff: false,
  },
  staffInvite: {
    label: "Staff invitation",
    audience: "visitor",
    when: "An admin invites someone to the staff (a link to choose a password, valid for 7 days).",
    canTurnOff: false,
  },
  emailChangeConfirm: {
    label: "New email confirmation",
    audience: "customer",
    when: "Someone asks to change their account's email: a link to the new address (the change happens when followed).",
    canTurnOff: false,
  },
  emailChangeNotice: {
    label: "Email change notice",
    audience: "customer",
    when: "Someone asks to change their account's email: a notice to the old address, saying what to do if it was not them.",
    canTurnOff: false,
  },
} as const satisfies Record<MailKind, MailKindInfo>;

export const MAIL_KIND_NAMES = Object.keys(MAIL_KINDS) as MailKind[];

export const isMailKind = (value: unknown): value is MailKind =>
  typeof value === "string" && Object.hasOwn(MAIL_KINDS, value);
