import { describe, expect, it } from "vitest";
import { brandOf } from "../mail/brand";
import { renderMail } from "./mails";
import { MAIL_KIND_NAMES, type MailKind } from "../mail/kinds";
import { sampleData } from "../mail/samples";

const PUBLIC_URL = "https://studio.example";
const NOW = new Date("2026-03-10T12:00:00Z");
const content = {
  copyright: [{ _id: "c", copyrightText: "© 2026 Atelier North Studio. All rights reserved." }],
  logo: [{ _id: "l", logo: "/images/logo.svg" }],
  footerAddress: [
    { _id: "a", Location: "12 Quay Street, Bristol", Phone: "+44 117 000 0000", footerEmail: "hello@atelier.example" },
  ],
} as never;
/** The mails service adds the PNG drawn from the site's logo (server/mail/logo.ts). */
const LOGO_PNG = `${PUBLIC_URL}/mail/logo-0123456789abcdef.png`;
const brand = { ...brandOf(content, PUBLIC_URL), mailLogo: { url: LOGO_PNG, width: 135, height: 36 } };
const options = { brand, publicUrl: PUBLIC_URL, timeZone: "Europe/London" };
const samples = sampleData(NOW, PUBLIC_URL);
const render = <K extends MailKind>(kind: K, data = samples[kind]) => renderMail(kind, data, "to@example.com", options);

/** The link each kind is about. */
const LINKS: Record<MailKind, string> = {
  orderPlaced: `${PUBLIC_URL}/pay-now/${samples.orderPlaced.orderId}`,
  payLink: `${PUBLIC_URL}/pay-now/${samples.payLink.orderId}`,
  paymentReceived: `${PUBLIC_URL}/dashboard`,
  membershipActive: `${PUBLIC_URL}/dashboard`,
  membershipEndingSoon: `${PUBLIC_URL}/pricing`,
  membershipRenewsSoon: `${PUBLIC_URL}/account/subscriptions`,
  membershipGiven: `${PUBLIC_URL}/dashboard`,
  membershipEnded: `${PUBLIC_URL}/pricing`,
  orderCancelled: `${PUBLIC_URL}/pricing`,
  paymentRefunded: `${PUBLIC_URL}/dashboard`,
  paymentPartlyRefunded: `${PUBLIC_URL}/dashboard`,
  adminPaymentWaiting: `${PUBLIC_URL}/admin/payment-status/${samples.adminPaymentWaiting.orderId}`,
  adminPaymentNotApplied: `${PUBLIC_URL}/admin/payment-status/${samples.adminPaymentNotApplied.orderId}`,
  subscriptionPaymentFailed: `${PUBLIC_URL}/account/subscriptions`,
  adminSubscriptionPaymentFailed: `${PUBLIC_URL}/admin/payment-status/${samples.adminSubscriptionPaymentFailed.orderId}`,
  subscriptionCancelled: `${PUBLIC_URL}/account/subscriptions`,
  adminContactMessage: `${PUBLIC_URL}/view/${samples.adminContactMessage.messageId}`,
  adminBackupFailed: `${PUBLIC_URL}/backups`,
  webhookEndpointPaused: `${PUBLIC_URL}/webhooks/${samples.webhookEndpointPaused.endpointId}`,
  newsletterConfirm: samples.newsletterConfirm.confirmUrl,
  passwordReset: samples.passwordReset.url,
  verifyEmail: samples.verifyEmail.url,
  staffInvite: samples.staffInvite.url,
  emailChangeConfirm: samples.emailChangeConfirm.url,
  emailChangeNotice: `${PUBLIC_URL}/account/password`,
};

describe("renderMail", () => {
  it.each(MAIL_KIND_NAMES)("%s: HTML and plain text from one template, with its link and the agency", async (kind) => {
    const mail = await render(kind);
    expect(mail.to).toBe("to@example.com");
    expect(mail.subject.length).toBeGreaterThan(5);
    expect(mail.link).toBe(LINKS[kind]);
    expect(mail.html).toContain(`href="${LINKS[kind]}"`);
    expect(mail.text).toContain(LINKS[kind]);
    // The agency's name and address from the content, the logo as a PNG by its absolute address, with its size.
    for (const part of [mail.html, mail.text]) {
      expect(part).toContain("Atelier North Studio");
      expect(part).toContain("12 Quay Street, Bristol");
    }
    const logo = /<img[^>]*>/.exec(mail.html)?.[0] ?? "";
    for (const attribute of [`src="${LOGO_PNG}"`, 'width="135"', 'height="36"']) expect(logo).toContain(attribute);
    expect(mail.html).not.toContain(".svg");
    // The plain text is text: no markup, no styles.
    expect(mail.text).not.toMatch(/<\/?[a-z][^>]*>|style=|&[a-z]+;/i);
  });

  it("names every order by its number, the same one the pages show", async () => {
    for (const kind of MAIL_KIND_NAMES) {
      const data = samples[kind] as { orderNumber?: string };
      if (!data.orderNumber) continue;
      const mail = await render(kind);
      for (const part of [mail.html, mail.text]) expect(part, kind).toContain("AN-2026-00123");
    }
  });

  it("a refund says what the membership is now", async () => {
    const mail = await render("paymentRefunded");
    for (const part of [mail.html, mail.text]) {
      expect(part).toContain("$99.00 USD");
      expect(part).toContain("Valid until Mar 22, 2026");
    }
    const none = await render("paymentRefunded", { ...samples.paymentRefunded, membershipEnds: null });
    expect(none.text).toContain("No active membership");
  });

  it("writes amounts, dates and the PayPal transaction id of a receipt", async () => {
    const mail = await render("paymentReceived");
    for (const part of [mail.html, mail.text]) {
      expect(part).toContain("$99.00 USD");
      expect(part).toContain("Mar 10, 2026");
      expect(part).toContain("8MC585209K746392H");
    }
    expect(mail.text).toContain("The studio activates your membership shortly");
  });

  it("escapes what people typed in the HTML, keeps it as typed in the text, and sets Reply-To to the visitor", async () => {
    const typed = `<script>alert("x")</script> & <img src=x onerror=alert(1)>`;
    const mail = await render("adminContactMessage", {
      ...samples.adminContactMessage,
      name: typed,
      subject: typed,
      message: `${typed}\nsecond line`,
      email: "visitor@example.com",
    });
    expect(mail.html).not.toContain("<script>");
    expect(mail.html).not.toContain("<img src=x");
    expect(mail.html).toContain("&lt;script&gt;");
    expect(mail.text).toContain(`${typed}\nsecond line`);
    expect(mail.replyTo).toBe("visitor@example.com");
  });

  it("shows the agency's name when no logo is set", async () => {
    const noLogo = brandOf({ ...(content as object), logo: [] } as never, PUBLIC_URL);
    const mail = await renderMail("orderPlaced", samples.orderPlaced, "to@example.com", { ...options, brand: noLogo });
    expect(mail.html).not.toContain("<img");
    expect(mail.html).toContain("Atelier North Studio");
  });
});
