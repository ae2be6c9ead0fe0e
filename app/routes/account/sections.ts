/**
 * The "My account" area's sub-navigation, in the order it shows: one entry per page. A page of the area is registered
 * inside the account layout in app/routes.ts (layout("routes/account/layout.tsx", [...])), which draws this list and
 * the area's frame with the heading and summary below; the page draws its content only, and starts with requireUser.
 */
export interface AccountSection {
  label: string;
  to: string;
  /** One line under the heading, in the page's own words. */
  summary: string;
}

export const ACCOUNT_SECTIONS: readonly AccountSection[] = [
  { label: "Profile", to: "/account", summary: "Your name and email address." },
  { label: "Password", to: "/account/password", summary: "Change the password you sign in with." },
  { label: "Sessions", to: "/account/sessions", summary: "Where you are signed in, and signing out elsewhere." },
  { label: "Two-factor sign-in", to: "/account/security", summary: "A code from your phone as well as your password." },
  {
    label: "Automatic renewal",
    to: "/account/subscriptions",
    summary: "Memberships PayPal renews for you, and how to cancel.",
  },
  { label: "My data", to: "/account/data", summary: "Everything we keep about you, to read or download." },
  { label: "Delete account", to: "/account/delete", summary: "Close your account and erase your personal data." },
];

/** The section a path belongs to (the longest matching address), for marking it in the navigation. */
export function sectionOf(pathname: string): AccountSection | undefined {
  const path = pathname.replace(/\/+$/, "") || "/";
  return [...ACCOUNT_SECTIONS]
    .sort((a, b) => b.to.length - a.to.length)
    .find((s) => path === s.to || path.startsWith(`${s.to}/`));
}
