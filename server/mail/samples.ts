import type { MailData, MailKind } from "./kinds";

const DAY = 86_400_000;
const ORDER_ID = "3f6c2a9e-8b1d-4c57-9a0e-5d2f7b4c1e88";
const ORDER_NUMBER = "AN-2026-00123";

/** The package a sample mail is about: one of the site's own (its first on the pricing page), or this one. */
export interface SamplePackage {
  name: string;
  price: number;
  validity: number;
}
export const FALLBACK_SAMPLE_PACKAGE: SamplePackage = { name: "Standard", price: 99, validity: 30 };

/**
 * Sample data per kind, for the back office's previews and test sends (dates relative to the given moment), about a
 * package of the site, so that a preview shows a name and price the studio recognises.
 */
export function sampleData(
  now: Date,
  publicUrl: string,
  pkg: SamplePackage = FALLBACK_SAMPLE_PACKAGE,
): { [K in MailKind]: MailData[K] } {
  const inDays = (n: number) => new Date(now.getTime() + n * DAY);
  return { ...orderSamples(now, inDays, pkg), ...siteSamples(now, inDays, publicUrl) };
}

type Samples = Partial<{ [K in MailKind]: MailData[K] }>;

/** The mails about an order: to its customer, and to the admin. */
function orderSamples(now: Date, inDays: (n: number) => Date, pkg: SamplePackage) {
  const order = { orderId: ORDER_ID, orderNumber: ORDER_NUMBER, customerName: "Jane Doe" };
  const sale = { ...order, packageName: pkg.name, amount: pkg.price };
  const adminSale = { ...order, customerEmail: "jane@example.com", packageName: pkg.name, amount: pkg.price };
  return {
    orderPlaced: { ...sale },
    payLink: { ...sale, currency: "USD" },
    paymentReceived: {
      ...sale,
      paidAt: now,
      txnId: "8MC585209K746392H",
      activated: false,
      invoiceNumber: "INV-2026-00042",
    },
    membershipActive: { ...order, packageName: pkg.name, expiresAt: inDays(pkg.validity) },
    membershipGiven: { ...order, days: 10, expiresAt: inDays(40) },
    membershipEndingSoon: { customerName: "Jane Doe", packageName: pkg.name, expiresAt: inDays(7) },
    membershipRenewsSoon: { customerName: "Jane Doe", packageName: pkg.name, renewsAt: inDays(7), amount: pkg.price },
    membershipEnded: { customerName: "Jane Doe", packageName: pkg.name, endedAt: now },
    orderCancelled: { ...sale },
    paymentRefunded: {
      ...sale,
      membershipEnds: inDays(12),
      note: "We are sorry the catalogue did not suit your project.",
      creditNoteNumber: "CN-2026-00002",
    },
    paymentPartlyRefunded: {
      ...order,
      packageName: pkg.name,
      amount: 10,
      refundedSoFar: 10,
      price: pkg.price,
      note: "As agreed on the phone: the two weeks you could not use.",
      creditNoteNumber: "CN-2026-00001",
    },
    adminPaymentWaiting: { ...adminSale, txnId: "8MC585209K746392H" },
    adminPaymentNotApplied: {
      ...adminSale,
      txnId: "8MC585209K746392H",
      reason:
        "The discount code WELCOME25 has been used up by other paid orders since this order was placed: the payment was not applied. Refund it at PayPal, or ask the customer to order again.",
    },
    subscriptionPaymentFailed: { ...adminSale },
    adminSubscriptionPaymentFailed: { ...adminSale },
    subscriptionCancelled: { ...order, packageName: pkg.name, membershipEnds: inDays(12) },
  } satisfies Samples;
}

/** The site's other mails: the admin's alerts, the newsletter's confirmation, the accounts'. */
function siteSamples(now: Date, inDays: (n: number) => Date, publicUrl: string) {
  const base = publicUrl.replace(/\/$/, "");
  return {
    adminContactMessage: {
      messageId: ORDER_ID,
      name: "Jane Doe",
      email: "jane@example.com",
      number: "+1 555 0100",
      subject: "A question about the Premium package",
      message: "Hello,\nDoes the Premium package include the local SEO audit?\nThanks, Jane",
    },
    adminBackupFailed: {
      startedAt: now,
      error: "ENOSPC: no space left on device, write",
      folder: "/srv/atelier/data/backups",
    },
    webhookEndpointPaused: {
      endpointId: "7a1e2b3c-4d5e-4f60-8a9b-0c1d2e3f4a5b",
      url: "https://hooks.example.com/atelier",
      description: "Bookkeeping",
      failingSince: inDays(-5),
    },
    newsletterConfirm: { confirmUrl: `${base}/newsletter`, unsubscribeUrl: `${base}/newsletter` },
    passwordReset: { url: `${base}/reset-password` },
    verifyEmail: { url: `${base}/login` },
    staffInvite: { role: "Editor", invitedBy: "owner@example.com", url: `${base}/reset-password`, setPassword: true },
    emailChangeConfirm: { url: `${base}/account/email-confirmed`, oldEmail: "jane@example.com" },
    emailChangeNotice: { newEmail: "jane.doe@example.net" },
  } satisfies Samples;
}
