import type { ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { useActionForm } from "./ActionForm";
import { TextField } from "./forms";

/** What the login and register pages share: where to go afterwards, and the form (answers written in it). */
export function useCredentialsForm(id: "login" | "register") {
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo") ?? "";
  return { redirectTo, form: useActionForm({ id, feedback: "inline" }) };
}

/** The frame of the account pages (login, register, reset). */
export function AuthCard({
  title,
  subtitle,
  children,
  footer,
}: {
  title: string;
  subtitle?: string;
  children: ReactNode;
  footer?: ReactNode;
}) {
  return (
    <section className="bg-sand">
      <div className="container-page flex justify-center py-16 sm:py-24">
        <div className="w-full max-w-md">
          <div className="rounded-3xl bg-white p-8 shadow-sm ring-1 ring-linen sm:p-10">
            <h1 className="text-3xl text-forest">{title}</h1>
            {subtitle ? <p className="mt-2 text-sm text-mist">{subtitle}</p> : null}
            <div className="mt-8">{children}</div>
          </div>
          {footer ? <div className="mt-6 text-center text-sm text-mist">{footer}</div> : null}
          <p className="mt-4 text-center text-xs text-mist">
            <Link to="/" className="hover:text-clay">
              ← Back to the site
            </Link>
          </p>
        </div>
      </div>
    </section>
  );
}

/** The account forms' email field: same label and autocomplete on every page (value and error from the form). */
export function EmailField() {
  return <TextField label="Email" name="email" type="email" autoComplete="email" required />;
}

export function PasswordField({
  label = "Password",
  autoComplete,
}: {
  label?: string;
  autoComplete: "current-password" | "new-password";
}) {
  return <TextField label={label} name="password" type="password" autoComplete={autoComplete} required minLength={6} />;
}

/** The card's footer link to the other credentials page, carrying where the visitor was going. */
export function AuthSwitch({
  prompt,
  to,
  label,
  redirectTo,
}: {
  prompt: string;
  to: "/login" | "/register";
  label: string;
  redirectTo?: string | null;
}) {
  return (
    <>
      {prompt}{" "}
      <Link
        to={redirectTo ? `${to}?redirectTo=${encodeURIComponent(redirectTo)}` : to}
        className="font-semibold text-clay hover:underline"
      >
        {label}
      </Link>
    </>
  );
}
