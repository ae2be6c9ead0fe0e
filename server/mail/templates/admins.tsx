import { amountWithCode, centsOf, type Currency } from "#domain/currency.ts";
import { dateTime } from "#domain/dates.ts";
import { Cta, Facts, Layout, P, Quote } from "./Layout";
import type { Template } from "./types";

/** "$49.00 USD", in the order's currency ("£58.80 GBP"). */
const usd = (amount: number, currency: Currency = "USD") => amountWithCode(centsOf(amount), currency);
const why = "You receive this email because you are an administrator of the site.";

/** An order's payment as the admins' mails about it list it. */
function paymentFacts(d: {
  orderNumber: string;
  customerName?: string | null;
  customerEmail: string;
  packageName: string;
  amount: number;
  currency?: Currency;
  txnId?: string | null;
}) {
  return (
    <Facts
      rows={[
        ["Order", d.orderNumber],
        ["Customer", d.customerName ? `${d.customerName} (${d.customerEmail})` : d.customerEmail],
        ["Package", d.packageName],
        ["Amount", usd(d.amount, d.currency)],
        ["PayPal transaction", d.txnId ?? "None"],
      ]}
    />
  );
}

export const adminPaymentWaiting: Template<"adminPaymentWaiting"> = (d, { brand, url }) => {
  const link = url(`/admin/payment-status/${d.orderId}`);
  return {
    subject: `Payment verified, waiting for delivery: ${d.packageName} for ${d.customerName || d.customerEmail}`,
    link,
    body: (
      <Layout
        brand={brand}
        preview="A customer has paid and waits for their membership."
        heading="A paid order waits for delivery"
        footnote={why}
      >
        <P>PayPal verified a payment. The customer waits until you set the order Delivered.</P>
        {paymentFacts(d)}
        <Cta href={link}>Open the order</Cta>
      </Layout>
    ),
  };
};

/** A payment PayPal took that its order could not take (decision 060): on record, to be refunded. */
export const adminPaymentNotApplied: Template<"adminPaymentNotApplied"> = (d, { brand, url }) => {
  const link = url(`/admin/payment-status/${d.orderId}`);
  return {
    subject: `Payment not applied, to refund: ${usd(d.amount, d.currency)} for ${d.orderNumber}`,
    link,
    body: (
      <Layout
        brand={brand}
        preview="PayPal took a payment its order could not take."
        heading="A payment to refund"
        footnote={why}
      >
        <P>{d.reason}</P>
        {paymentFacts(d)}
        <Cta href={link}>Open the order</Cta>
      </Layout>
    ),
  };
};

export const adminContactMessage: Template<"adminContactMessage"> = (d, { brand, url }) => {
  const link = url(`/view/${d.messageId}`);
  return {
    subject: `New message from ${d.name}: ${d.subject}`,
    link,
    replyTo: d.email,
    body: (
      <Layout brand={brand} preview={d.subject} heading="A new contact message" footnote={why}>
        <P>Reply to this email to answer {d.name} directly.</P>
        <Facts
          rows={[
            ["From", `${d.name} (${d.email})`],
            ["Phone", d.number || "None"],
            ["Subject", d.subject],
          ]}
        />
        <Quote>{d.message}</Quote>
        <Cta href={link}>Open the message</Cta>
      </Layout>
    ),
  };
};

export const adminBackupFailed: Template<"adminBackupFailed"> = (d, { brand, url, timeZone }) => {
  const link = url("/backups");
  const upload = d.bucket !== undefined;
  return {
    subject: upload ? "A backup of the site was not copied to its bucket" : "A backup of the site failed",
    link,
    body: (
      <Layout
        brand={brand}
        preview={upload ? "The site's backup is not in its bucket." : "The site's database was not backed up."}
        heading={upload ? "A backup was not copied to the bucket" : "A backup failed"}
        footnote={why}
      >
        {upload ? (
          <P>
            The backup started at {dateTime(d.startedAt, timeZone)} was written on the server, but its copy to the
            bucket failed, so the bucket's newest backup is older than it should be and no older one was removed there.
            Fix the cause, then start a backup from the Backups screen.
          </P>
        ) : (
          <P>
            The backup started at {dateTime(d.startedAt, timeZone)} did not finish, so the newest backup is older than
            it should be. Fix the cause, then start a backup from the Backups screen.
          </P>
        )}
        <Facts
          rows={[
            ["Reason", d.error],
            ["Folder", d.folder],
            ...(upload
              ? ([
                  ["Bucket", d.bucket!],
                  ["Backup on the server", d.written ?? ""],
                ] as [string, string][])
              : []),
          ]}
        />
        <Cta href={link}>Open Backups</Cta>
      </Layout>
    ),
  };
};

/** A webhook endpoint paused after failing for days (docs/decisions/078): to the Admin who added it. */
export const webhookEndpointPaused: Template<"webhookEndpointPaused"> = (d, { brand, url, timeZone }) => {
  const link = url(`/webhooks/${d.endpointId}`);
  return {
    subject: `Webhook endpoint paused: ${d.description || d.url}`,
    link,
    body: (
      <Layout
        brand={brand}
        preview="Every delivery to a webhook endpoint failed for days."
        heading="A webhook endpoint was paused"
        footnote="You receive this email because you added this webhook endpoint."
      >
        <P>
          Every event sent to this address since {dateTime(d.failingSince, timeZone)} failed, so the site stopped
          sending to it. Events that happen while it is paused are not kept for it. Fix the receiver, then resume the
          endpoint and send its failed deliveries again.
        </P>
        <Facts
          rows={[
            ["Address", d.url],
            ["Description", d.description || "None"],
          ]}
        />
        <Cta href={link}>Open the endpoint</Cta>
      </Layout>
    ),
  };
};
