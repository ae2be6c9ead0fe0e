import { Cta, Facts, Layout, P, Small } from "./Layout";
import type { Template } from "./types";

/** To the new address: the change of the account's email happens when its owner follows the link. */
export const emailChangeConfirm: Template<"emailChangeConfirm"> = (d, { brand }) => ({
  subject: "Confirm your new email address",
  link: d.url,
  body: (
    <Layout brand={brand} preview="One click and this becomes your account's email." heading="Confirm your new email">
      <P>
        You asked to use this address for your {brand.name} account instead of {d.oldEmail}.
      </P>
      <Cta href={d.url}>Use this address</Cta>
      <Small>
        The link works for 24 hours. Until you follow it, your account keeps its old address. If you did not ask for
        this, ignore this email: nothing changes.
      </Small>
    </Layout>
  ),
});

/** To the address the account had: what was asked, and what to do if it was not its owner. */
export const emailChangeNotice: Template<"emailChangeNotice"> = (d, { brand, url }) => ({
  subject: "A change of your account's email was asked",
  link: url("/account/password"),
  body: (
    <Layout brand={brand} preview={`Someone asked to change your email to ${d.newEmail}.`} heading="Email change asked">
      <P>Someone signed in to your {brand.name} account asked to change its email address.</P>
      <Facts rows={[["New address", d.newEmail]]} />
      <P>
        The change happens only if someone follows the link we sent to the new address. If it was you, there is nothing
        more to do here.
      </P>
      <P>
        If it was not you, change your password now: that cancels the change and signs out everyone else using your
        account.
      </P>
      <Cta href={url("/account/password")}>Change my password</Cta>
      <Small>
        If you cannot sign in any more, ask for a new password from the sign-in page, or write to us through the contact
        form on our site.
      </Small>
    </Layout>
  ),
});
