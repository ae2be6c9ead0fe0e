import { longDate } from "#domain/dates.ts";
import { Cta, Facts, Layout, P } from "./Layout";
import type { Template } from "./types";

const hello = (name: string) => (name.trim() ? `Hello ${name.trim()},` : "Hello,");

/** Days the agency gave (a gift, a fix): the membership's new end, once per given order. */
export const membershipGiven: Template<"membershipGiven"> = (d, { brand, url, timeZone }) => {
  const link = url("/dashboard");
  const until = longDate(d.expiresAt, timeZone);
  const days = `${d.days} ${d.days === 1 ? "day" : "days"}`;
  return {
    subject: `Your membership now runs until ${until}`,
    link,
    body: (
      <Layout
        brand={brand}
        preview={`We added ${days} to your membership.`}
        heading="Your membership now runs longer"
        footnote="You receive this email because you have an account on our site."
      >
        <P>{hello(d.customerName)}</P>
        <P>
          We added {days} to your membership, free of charge. Your membership now runs until {until}.
        </P>
        <Facts
          rows={[
            ["Order", d.orderNumber],
            ["Days added", String(d.days)],
            ["Valid until", until],
          ]}
        />
        <Cta href={link}>Open my items</Cta>
      </Layout>
    ),
  };
};
