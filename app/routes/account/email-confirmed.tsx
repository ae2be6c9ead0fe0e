import { Link, useSearchParams } from "react-router";
import type { Route } from "./+types/email-confirmed";
import { AuthCard } from "#app/components/AuthCard.tsx";
import { FormAlert } from "#app/components/FormAlert.tsx";

/**
 * Where the link of an email change lands (better-auth's /verify-email redirects here, with ?error=… when it refused).
 * It needs no session: the link may be opened on another device.
 */
export async function loader({ context }: Route.LoaderArgs) {
  const viewer = await context.viewer();
  return { signedIn: viewer !== null, email: viewer?.email ?? null };
}

export const meta: Route.MetaFunction = () => [
  { title: "Email address changed" },
  { name: "robots", content: "noindex" },
];

const ERRORS: Record<string, string> = {
  TOKEN_EXPIRED: "This link has expired: links work for 24 hours. Ask for the change again from your account.",
  EMAIL_TAKEN:
    "Another account registered this address after you asked for the change. Your email address has not changed: choose another one from your account.",
  CHANGE_CANCELLED:
    "This change was cancelled: the account's password was changed after it was asked. Ask for it again if you still want it.",
};
const INVALID = "This link is not valid any more: it may have been used already. Your email address has not changed.";

export default function EmailConfirmed({ loaderData }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const error = params.get("error");
  const { signedIn, email } = loaderData;
  return (
    <AuthCard title={error ? "Email not changed" : "Email address changed"}>
      {error ? (
        <FormAlert>{ERRORS[error] ?? INVALID}</FormAlert>
      ) : (
        <FormAlert tone="success">
          {signedIn && email ? (
            <>
              Your account&apos;s email is now <strong className="break-all">{email}</strong>. Sign in with it from now
              on.
            </>
          ) : (
            <>Your account&apos;s email is changed. Sign in with the new address from now on.</>
          )}
        </FormAlert>
      )}
      {signedIn ? (
        <Link to="/account" className="btn-dark w-full">
          Back to my account
        </Link>
      ) : (
        <Link to="/login?redirectTo=%2Faccount" className="btn-dark w-full">
          Login
        </Link>
      )}
    </AuthCard>
  );
}
