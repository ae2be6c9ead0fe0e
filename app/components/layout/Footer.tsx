import { useContext } from "react";
import { Link, UNSAFE_DataRouterStateContext } from "react-router";
import type { PageContent } from "#app/content/pages.ts";
import { SIGNUP_NEXT_STEP } from "#domain/public-texts.ts";
import { ActionForm, FormConfirmation, useActionForm } from "../ActionForm";
import { Honeypot } from "../forms";
import { Copyright, FooterAbout, FooterAddress, FooterSocial, Logo } from "../sections/FooterParts";

const QUICK_LINKS = [
  { label: "Home", to: "/" },
  { label: "Services", to: "/service/" },
  { label: "Pricing", to: "/pricing" },
  { label: "Contact", to: "/contact" },
  { label: "Login", to: "/login" },
  { label: "Privacy notice", to: "/privacy" },
  { label: "Terms", to: "/terms" },
];

/**
 * The footer: a fixed four-column frame (quick links and the newsletter are not content) whose content parts are the
 * "chrome" sections of app/content/pages.ts, each drawn by its registry component (imported one by one: the generic
 * RenderSection would bring every section's component into the scripts of every page, the signed-in ones included).
 */
export function Footer({ siteName, content }: { siteName: string; content: PageContent<"chrome"> }) {
  return (
    <footer className="bg-forest text-white/80 print:hidden">
      <div className="container-page grid gap-12 py-16 sm:grid-cols-2 lg:grid-cols-4">
        <div>
          <Logo record={content.logo[0]} siteName={siteName} />
          <FooterAbout record={content.footerAbout[0]} />
        </div>

        <div>
          <h2 className="font-serif text-lg text-white">Contact</h2>
          <FooterAddress record={content.footerAddress[0]} />
        </div>

        <div>
          <h2 className="font-serif text-lg text-white">Quick Links</h2>
          <ul className="mt-4 space-y-2.5 text-sm">
            {QUICK_LINKS.map((l) => (
              <li key={l.to}>
                <Link to={l.to} className="hover:text-white">
                  {l.label}
                </Link>
              </li>
            ))}
          </ul>
        </div>

        <div>
          <h2 className="font-serif text-lg text-white">Newsletter</h2>
          <p className="mt-4 text-sm">Design notes and search tips, once a month. No spam.</p>
          <NewsletterForm />
          <FooterSocial record={content.footerSocial[0]} />
        </div>
      </div>
      <div className="border-t border-white/10">
        <Copyright record={content.copyright[0]} />
      </div>
    </footer>
  );
}

function NewsletterForm() {
  // The footer is drawn outside the /newsletter route, whose action answers this form: its answer is read from the
  // router's state (React Router's useActionData reads only the enclosing route's), so that on a plain page the
  // answer shows at the form, posted in place or with the page.
  const answers = useContext(UNSAFE_DataRouterStateContext)?.actionData;
  const form = useActionForm({
    id: "newsletter",
    action: "/newsletter",
    confirm: true,
    pageAnswer: answers?.["routes/public/newsletter"],
  }); // checked by the server;
  const email = form.fields.subemail!;
  const error = email.errors?.[0];
  if (form.confirmed) {
    return (
      <FormConfirmation
        handle={form}
        tone="dark"
        title="Check your inbox"
        againText="Subscribe another address"
        className="mt-4"
      >
        {SIGNUP_NEXT_STEP}
      </FormConfirmation>
    );
  }
  return (
    // On a plain page the answer comes in the form (posted in place, or with the page without scripts): the success
    // line on white (the alert's light tint is the footer's own colour) and what to do next under it.
    <ActionForm handle={form} inPlace className="relative mt-4 [&_[role=status]]:mb-3 [&_[role=status]]:bg-white">
      <Honeypot />
      <label htmlFor={email.id} className="sr-only">
        Email address
      </label>
      {/* Not clipped (no overflow): the button's focus ring shows whole; the field's focus rings the whole pill. */}
      <div className="flex rounded-full bg-white/10 ring-1 ring-white/20 has-[input:focus-visible]:ring-2 has-[input:focus-visible]:ring-brass has-[input:focus-visible]:outline-3 has-[input:focus-visible]:outline-offset-2 has-[input:focus-visible]:outline-brass">
        <input
          key={email.key}
          id={email.id}
          type="email"
          name="subemail"
          required
          autoComplete="email"
          placeholder="Your email"
          defaultValue={typeof email.initialValue === "string" ? email.initialValue : undefined}
          aria-invalid={error ? true : undefined}
          aria-describedby={error ? email.errorId : undefined}
          className="min-w-0 flex-1 rounded-l-full bg-transparent px-4 py-3 text-sm text-white placeholder:text-white/50 focus:outline-none"
        />
        <button
          type="submit"
          disabled={form.busy}
          className="rounded-r-full bg-clay px-5 text-sm font-semibold text-white hover:bg-clay-dark disabled:opacity-60"
        >
          {form.busy ? "…" : "Subscribe"}
        </button>
      </div>
      {error ? (
        <p id={email.errorId} className="mt-2 text-sm text-red-200">
          {error}
        </p>
      ) : null}
      {form.shown?.ok ? <p className="mt-2 text-sm">{SIGNUP_NEXT_STEP}</p> : null}
    </ActionForm>
  );
}
