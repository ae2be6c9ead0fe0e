import { Cta, Layout, P, Small } from "./Layout";
import type { Template } from "./types";

/** An invitation to the staff: a link to choose a password, or (an account already confirmed) to sign in. */
export const staffInvite: Template<"staffInvite"> = (d, { brand }) => ({
  subject: `You are invited to the ${brand.name} back office`,
  link: d.url,
  body: (
    <Layout
      brand={brand}
      preview={`${d.invitedBy} added you to the staff as ${d.role}.`}
      heading="Join the back office"
    >
      <P>
        {d.invitedBy} added you to the staff of {brand.name} as {d.role === "Admin" ? "an Admin" : "an Editor"}.
      </P>
      {d.setPassword ? (
        <>
          <Cta href={d.url}>Choose your password</Cta>
          <Small>The link works once, for 7 days. If you did not expect it, ignore this email: nothing happens.</Small>
        </>
      ) : (
        <>
          <Cta href={d.url}>Sign in</Cta>
          <Small>Sign in with your usual password; the back office opens from the header's Admin link.</Small>
        </>
      )}
    </Layout>
  ),
});
