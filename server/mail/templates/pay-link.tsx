import { centsOf, formatMoney } from "#domain/currency.ts";
import { Cta, Facts, Layout, P, Small } from "./Layout";
import type { Template } from "./types";

const hello = (name: string) => (name.trim() ? `Hello ${name.trim()},` : "Hello,");

/**
 * An order the studio made for the customer (issue 35, part 7), to pay on the site's pay screen like an order of their
 * own: the amount in the order's currency, and the link. Sent once per order.
 */
export const payLink: Template<"payLink"> = (d, { brand, url }) => {
  const link = url(`/pay-now/${d.orderId}`);
  const amount = `${formatMoney(centsOf(d.amount), d.currency)} ${d.currency}`;
  return {
    subject: `Your order for ${d.packageName}: ${amount} to pay`,
    link,
    body: (
      <Layout
        brand={brand}
        preview={`Pay ${amount} to start your ${d.packageName} membership.`}
        heading="Your order is ready to pay"
        footnote="You receive this email because you have an account on our site."
      >
        <P>{hello(d.customerName)}</P>
        <P>As agreed with us, we made this order for you. Your membership starts once it is paid.</P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ["Package", d.packageName],
            ["Amount", amount],
          ]}
        />
        <Cta href={link}>Pay Now</Cta>
        <Small>
          You will be asked to sign in first. Not what you expected? Reply to this email and we will sort it out.
        </Small>
      </Layout>
    ),
  };
};
