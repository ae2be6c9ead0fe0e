import type { MailKind } from "../kinds";
import {
  adminBackupFailed,
  adminContactMessage,
  adminPaymentNotApplied,
  adminPaymentWaiting,
  webhookEndpointPaused,
} from "./admins";
import {
  membershipActive,
  membershipEnded,
  membershipEndingSoon,
  orderCancelled,
  orderPlaced,
  paymentReceived,
  paymentPartlyRefunded,
  paymentRefunded,
} from "./customer";
import { newsletterConfirm, passwordReset, verifyEmail } from "./links";
import { staffInvite } from "./staff";
import { membershipGiven } from "./membership-given";
import { payLink } from "./pay-link";
import {
  adminSubscriptionPaymentFailed,
  membershipRenewsSoon,
  subscriptionCancelled,
  subscriptionPaymentFailed,
} from "./subscription";
import { emailChangeConfirm, emailChangeNotice } from "./my-account";
import type { Template } from "./types";

/** One template per kind: the compiler refuses a kind without one. */
export const TEMPLATES: { [K in MailKind]: Template<K> } = {
  orderPlaced,
  payLink,
  paymentReceived,
  membershipActive,
  membershipEndingSoon,
  membershipRenewsSoon,
  membershipGiven,
  membershipEnded,
  orderCancelled,
  paymentRefunded,
  paymentPartlyRefunded,
  adminPaymentWaiting,
  adminPaymentNotApplied,
  subscriptionPaymentFailed,
  adminSubscriptionPaymentFailed,
  subscriptionCancelled,
  adminContactMessage,
  adminBackupFailed,
  webhookEndpointPaused,
  newsletterConfirm,
  passwordReset,
  verifyEmail,
  staffInvite,
  emailChangeConfirm,
  emailChangeNotice,
};

export type { MailContext, Template } from "./types";
