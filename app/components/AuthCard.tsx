import type { ReactNode } from "react";
import { Link, useNavigation, useSearchParams } from "react-router";
import { credentialsSchema } from "../content/account-forms";
import { TextField, useClientValidation, type ActionFailure } from "./forms";

/** What the login and register pages share: where to go afterwards, the busy state, and the field checks. */
export function useCredentialsForm(actionData: ActionFailure | undefined) {
  const [params] = useSearchParams();
  const redirectTo = params.get("redirectTo") ?? "";
  const busy = useNavigation().state === "submitting";
  return { redirectTo, busy, ...useClientValidation(credentialsSchema, actionData) };
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

export function FormAlert({ children, tone = "error" }: { children: ReactNode; tone?: "error" | "success" }) {
  return (
    <p
      role={tone === "error" ? "alert" : "status"}
      className={`mb-6 rounded-xl px-4 py-3 text-sm ${tone === "error" ? "bg-red-50 text-red-800 ring-1 ring-red-200" : "bg-forest/5 text-forest ring-1 ring-forest/15"}`}
    >
      {children}
    </p>
  );
}

/** The account forms' email field: same label, autocomplete and error wiring on every page. */
export function EmailField({ defaultValue, error }: { defaultValue?: string; error?: string }) {
  return (
    <TextField
      label="Email"
      name="email"
      type="email"
      autoComplete="email"
      required
      defaultValue={defaultValue}
      error={error}
    />
  );
}

export function PasswordField({
  label = "Password",
  autoComplete,
  error,
}: {
  label?: string;
  autoComplete: "current-password" | "new-password";
  error?: string;
}) {
  return (
    <TextField
      label={label}
      name="password"
      type="password"
      autoComplete={autoComplete}
      required
      minLength={6}
      error={error}
    />
  );
}
