import { amountWithCode, centsOf, type Currency } from "#domain/currency.ts";
import { longDate } from "#domain/dates.ts";
import { WAITING_TEXTS } from "#domain/membership.ts";
import { Cta, Facts, Layout, Link, LOOK, P, Small } from "./Layout";
import type { Template } from "./types";

/** "$49.00 USD", in the order's currency ("£58.80 GBP"). */
const usd = (amount: number, currency: Currency = "USD") => amountWithCode(centsOf(amount), currency);
const hello = (name: string) => (name.trim() ? `Hello ${name.trim()},` : "Hello,");
const why = "You receive this email because you have an account on our site.";

export const orderPlaced: Template<"orderPlaced"> = (d, { brand, url }) => {
  const link = url(`/pay-now/${d.orderId}`);
  return {
    subject: `Your order for ${d.packageName}: ${usd(d.amount, d.currency)}`,
    link,
    body: (
      <Layout
        brand={brand}
        preview={`Pay ${usd(d.amount, d.currency)} to start your ${d.packageName} membership.`}
        heading="Thank you for your order"
        footnote={why}
      >
        <P>{hello(d.customerName)}</P>
        <P>We have your order. Your membership starts once it is paid.</P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ["Package", d.packageName],
            ["Amount", usd(d.amount, d.currency)],
          ]}
        />
        <Cta href={link}>Pay Now</Cta>
        <Small>Changed your mind? Leave it unpaid, or cancel it on PayPal's page.</Small>
      </Layout>
    ),
  };
};

export const paymentReceived: Template<"paymentReceived"> = (d, { brand, url, timeZone }) => {
  const link = url("/dashboard");
  // Its invoice (decision 038): linked, behind sign-in, rather than attached.
  const invoice = d.invoiceNumber ? url(`/invoice/${encodeURIComponent(d.orderNumber)}`) : null;
  return {
    subject: `Payment received: ${usd(d.amount, d.currency)} for ${d.packageName}`,
    link,
    body: (
      <Layout brand={brand} preview={`Your receipt for ${d.packageName}.`} heading="Payment received" footnote={why}>
        <P>{hello(d.customerName)}</P>
        <P>Thank you: we received your payment. This is your receipt.</P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ...(d.invoiceNumber ? [["Invoice", d.invoiceNumber] as [string, string]] : []),
            ["Package", d.packageName],
            ["Amount", usd(d.amount, d.currency)],
            ["Date", longDate(d.paidAt, timeZone)],
            ["PayPal transaction", d.txnId ?? "Recorded by the studio"],
          ]}
        />
        {invoice ? (
          <P>
            Your invoice {d.invoiceNumber}, to print or save as a PDF:{" "}
            <Link href={invoice} style={{ color: LOOK.clay, textDecoration: "underline" }}>
              {invoice}
            </Link>
          </P>
        ) : null}
        <P>
          {d.activated
            ? "What happens next: your membership is active now, and your items are open on your dashboard."
            : `What happens next: ${WAITING_TEXTS.next}`}
        </P>
        <Cta href={link}>Go to my dashboard</Cta>
      </Layout>
    ),
  };
};

export const membershipActive: Template<"membershipActive"> = (d, { brand, url, timeZone }) => {
  const link = url("/dashboard");
  const until = longDate(d.expiresAt, timeZone);
  return {
    subject: `Your ${d.packageName} membership is active`,
    link,
    body: (
      <Layout
        brand={brand}
        preview={`Your items are open until ${until}.`}
        heading="Your membership is active"
        footnote={why}
      >
        <P>{hello(d.customerName)}</P>
        <P>Your membership is active: every item is open to you on your dashboard.</P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ["Package", d.packageName],
            ["Valid until", until],
          ]}
        />
        <Cta href={link}>Open my items</Cta>
      </Layout>
    ),
  };
};

export const membershipEndingSoon: Template<"membershipEndingSoon"> = (d, { brand, url, timeZone }) => {
  const link = url("/pricing");
  const until = longDate(d.expiresAt, timeZone);
  return {
    subject: `Your membership ends on ${until}`,
    link,
    body: (
      <Layout
        brand={brand}
        preview="Renew now to keep your items open."
        heading="Your membership ends soon"
        footnote={why}
      >
        <P>{hello(d.customerName)}</P>
        <P>
          Your {d.packageName} membership ends on {until}. Renew it before then and the new time is added to the time
          you have left, so your items stay open without a break.
        </P>
        <Cta href={link}>Renew my membership</Cta>
      </Layout>
    ),
  };
};

export const membershipEnded: Template<"membershipEnded"> = (d, { brand, url, timeZone }) => {
  const link = url("/pricing");
  return {
    subject: "Your membership has ended",
    link,
    body: (
      <Layout
        brand={brand}
        preview="Renew your membership to open your items again."
        heading="Your membership has ended"
        footnote={why}
      >
        <P>{hello(d.customerName)}</P>
        <P>
          Your {d.packageName} membership ended on {longDate(d.endedAt, timeZone)}. Renew your membership to access
          Items again.
        </P>
        <Cta href={link}>Renew my membership</Cta>
      </Layout>
    ),
  };
};

export const orderCancelled: Template<"orderCancelled"> = (d, { brand, url }) => {
  const link = url("/pricing");
  return {
    subject: `Your order for ${d.packageName} is cancelled`,
    link,
    body: (
      <Layout brand={brand} preview="Nothing was charged." heading="Your order is cancelled" footnote={why}>
        <P>{hello(d.customerName)}</P>
        <P>Your order was cancelled before it was paid, so nothing was charged.</P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ["Package", d.packageName],
            ["Amount", usd(d.amount, d.currency)],
          ]}
        />
        <P>Whenever you are ready, you can choose a package again.</P>
        <Cta href={link}>See the packages</Cta>
      </Layout>
    ),
  };
};

export const paymentRefunded: Template<"paymentRefunded"> = (d, { brand, url, timeZone }) => {
  const link = url("/dashboard");
  const until = d.membershipEnds ? longDate(d.membershipEnds, timeZone) : null;
  return {
    subject: `Your payment for ${d.packageName} was refunded`,
    link,
    body: (
      <Layout
        brand={brand}
        preview={until ? `Your membership now runs until ${until}.` : "This order no longer gives membership days."}
        heading="Your payment was refunded"
        footnote={why}
      >
        <P>{hello(d.customerName)}</P>
        <P>The payment for this order was refunded, so it no longer gives membership days.</P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ["Package", d.packageName],
            ...(d.creditNoteNumber ? [["Credit note", d.creditNoteNumber] as [string, string]] : []),
            ["Amount refunded", usd(d.amount, d.currency)],
            ["Membership", until ? `Valid until ${until}` : "No active membership"],
          ]}
        />
        {d.note ? <P>{d.note}</P> : null}
        <CreditNoteLink number={d.creditNoteNumber} url={url} />
        <Cta href={link}>Go to my dashboard</Cta>
      </Layout>
    ),
  };
};

/** A refund mail's credit note (decision 073): named and linked, behind sign-in, as the receipt links its invoice. */
function CreditNoteLink({ number, url }: { number?: string | null; url: (path: string) => string }) {
  if (!number) return null;
  const href = url(`/credit-note/${encodeURIComponent(number)}`);
  return (
    <P>
      Your credit note {number}, to print or save as a PDF:{" "}
      <Link href={href} style={{ color: LOOK.clay, textDecoration: "underline" }}>
        {href}
      </Link>
    </P>
  );
}

export const paymentPartlyRefunded: Template<"paymentPartlyRefunded"> = (d, { brand, url }) => {
  const link = url("/dashboard");
  return {
    subject: `${usd(d.amount, d.currency)} of your payment for ${d.packageName} was refunded`,
    link,
    body: (
      <Layout
        brand={brand}
        preview={`${usd(d.amount, d.currency)} is on its way back to you. Your membership days stay as they are.`}
        heading="Part of your payment was refunded"
        footnote={why}
      >
        <P>{hello(d.customerName)}</P>
        <P>
          We refunded {usd(d.amount, d.currency)} of your payment through PayPal. Your order stays paid and your
          membership days stay as they are.
        </P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ["Package", d.packageName],
            ...(d.creditNoteNumber ? [["Credit note", d.creditNoteNumber] as [string, string]] : []),
            ["Amount refunded", usd(d.amount, d.currency)],
            ["Refunded so far", `${usd(d.refundedSoFar, d.currency)} of ${usd(d.price, d.currency)}`],
          ]}
        />
        {d.note ? <P>{d.note}</P> : null}
        <CreditNoteLink number={d.creditNoteNumber} url={url} />
        <Small>PayPal usually returns the money to the account or card you paid with within a few days.</Small>
        <Cta href={link}>Go to my dashboard</Cta>
      </Layout>
    ),
  };
};
