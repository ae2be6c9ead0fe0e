import { Cta, Layout, P, Small } from "./Layout";
import type { Template } from "./types";

export const passwordReset: Template<"passwordReset"> = (d, { brand }) => ({
  subject: "Reset your password",
  link: d.url,
  body: (
    <Layout brand={brand} preview="Choose a new password." heading="Reset your password">
      <P>Someone (we hope you) asked to reset the password of your account.</P>
      <Cta href={d.url}>Choose a new password</Cta>
      <Small>The link works once, for one hour. If you did not ask for it, ignore this email: nothing changes.</Small>
    </Layout>
  ),
});

export const verifyEmail: Template<"verifyEmail"> = (d, { brand }) => ({
  subject: "Confirm your email address",
  link: d.url,
  body: (
    <Layout brand={brand} preview="Confirm that this address is yours." heading="Confirm your email address">
      <P>Welcome! Please confirm that this address is yours.</P>
      <Cta href={d.url}>Confirm my email</Cta>
      <Small>The link works for 24 hours. If you did not create an account, ignore this email.</Small>
    </Layout>
  ),
});

export const newsletterConfirm: Template<"newsletterConfirm"> = (d, { brand }) => ({
  subject: `Confirm your subscription to ${brand.name}`,
  link: d.confirmUrl,
  body: (
    <Layout
      brand={brand}
      preview="One click and you are subscribed."
      heading="Confirm your subscription"
      footnote={
        d.unsubscribeUrl ? (
          <>
            Not for you?{" "}
            <a href={d.unsubscribeUrl} style={{ color: "inherit" }}>
              Unsubscribe
            </a>
            .
          </>
        ) : undefined
      }
    >
      <P>Please confirm that you want to receive our newsletter at this address.</P>
      <Cta href={d.confirmUrl}>Confirm my subscription</Cta>
      <Small>The link works for 7 days. If you did not sign up, ignore this email: you will not be subscribed.</Small>
    </Layout>
  ),
});
