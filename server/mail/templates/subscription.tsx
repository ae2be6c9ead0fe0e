import { amountWithCode, centsOf, type Currency } from "#domain/currency.ts";
import { longDate } from "#domain/dates.ts";
import { Cta, Facts, Layout, P, Small } from "./Layout";
import type { Template } from "./types";

/** "$49.00 USD", in the order's currency ("£58.80 GBP"). */
const usd = (amount: number, currency: Currency = "USD") => amountWithCode(centsOf(amount), currency);
const hello = (name: string) => (name.trim() ? `Hello ${name.trim()},` : "Hello,");

/** Seven days before a membership's end that a PayPal subscription renews: when, how much, and how to cancel. */
export const membershipRenewsSoon: Template<"membershipRenewsSoon"> = (d, { brand, url, timeZone }) => {
  const link = url("/account/subscriptions");
  const on = longDate(d.renewsAt, timeZone);
  return {
    subject: `Your membership renews on ${on}`,
    link,
    body: (
      <Layout
        brand={brand}
        preview={`PayPal takes ${usd(d.amount, d.currency)} on ${on}.`}
        heading="Your membership renews soon"
        footnote="You receive this email because your membership renews automatically."
      >
        <P>{hello(d.customerName)}</P>
        <P>
          Your {d.packageName} membership renews automatically on {on}: PayPal takes {usd(d.amount, d.currency)}, and
          the new time follows the time you have left, so your items stay open without a break. You need to do nothing.
        </P>
        <Facts
          rows={[
            ["Package", d.packageName],
            ["Renews on", on],
            ["Amount", usd(d.amount, d.currency)],
          ]}
        />
        <Cta href={link}>See my automatic renewal</Cta>
        <Small>
          To stop it, cancel before {on}: your account page says how. The time you have paid for stays yours.
        </Small>
      </Layout>
    ),
  };
};

/** PayPal could not take a renewal payment: the customer hears it and what to do. */
export const subscriptionPaymentFailed: Template<"subscriptionPaymentFailed"> = (d, { brand, url }) => {
  const link = url("/account/subscriptions");
  return {
    subject: `Your ${d.packageName} renewal payment did not go through`,
    link,
    body: (
      <Layout
        brand={brand}
        preview="PayPal could not take your renewal payment."
        heading="Your renewal payment did not go through"
        footnote="You receive this email because your membership renews automatically."
      >
        <P>{hello(d.customerName)}</P>
        <P>
          PayPal could not take the automatic payment for your membership. Please check the card or account you pay with
          on PayPal. PayPal tries again in a few days.
        </P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ["Package", d.packageName],
            ["Amount", usd(d.amount, d.currency)],
          ]}
        />
        <Cta href={link}>See my automatic renewal</Cta>
        <Small>The time you already paid for stays yours.</Small>
      </Layout>
    ),
  };
};

/** The same failure, to every admin. */
export const adminSubscriptionPaymentFailed: Template<"adminSubscriptionPaymentFailed"> = (d, { brand, url }) => {
  const link = url(`/admin/payment-status/${d.orderId}`);
  return {
    subject: `Renewal payment failed: ${d.packageName} for ${d.customerName || d.customerEmail}`,
    link,
    body: (
      <Layout
        brand={brand}
        preview="PayPal could not take a customer's renewal payment."
        heading="A renewal payment failed"
        footnote="You receive this email because you are an administrator of the site."
      >
        <P>PayPal could not take a subscription's payment. The customer has been told.</P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ["Customer", d.customerName ? `${d.customerName} (${d.customerEmail})` : d.customerEmail],
            ["Package", d.packageName],
            ["Amount", usd(d.amount, d.currency)],
          ]}
        />
        <Cta href={link}>Open the order</Cta>
      </Layout>
    ),
  };
};

/** An automatic renewal stopped: nothing more is taken, and the time already paid for stays the customer's. */
export const subscriptionCancelled: Template<"subscriptionCancelled"> = (d, { brand, url, timeZone }) => {
  const link = url("/account/subscriptions");
  const ends = d.membershipEnds ? longDate(d.membershipEnds, timeZone) : null;
  return {
    subject: "Your automatic renewal is cancelled",
    link,
    body: (
      <Layout
        brand={brand}
        preview="PayPal takes no more payments for your membership."
        heading="Your automatic renewal is cancelled"
        footnote="You receive this email because your membership renewed automatically."
      >
        <P>{hello(d.customerName)}</P>
        <P>
          The automatic renewal of your {d.packageName} membership is cancelled: PayPal takes no more payments for it.
          {ends ? ` The time you have paid for stays yours: your membership runs until ${ends}.` : ""}
        </P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ["Package", d.packageName],
            ...(ends ? ([["Membership until", ends]] as [string, string][]) : []),
          ]}
        />
        <Cta href={link}>See my account</Cta>
        <Small>To keep your membership going after that, order it again from the pricing page.</Small>
      </Layout>
    ),
  };
};
