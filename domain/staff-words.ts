/**
 * The words staff read where the customer's pages would otherwise speak to them (issue 33, item 14). Apart from the
 * forms' schemas: the back office's browser code needs them, and zod stays out of its scripts (decision 054).
 */

/**
 * The words of a staff invitation's page (issue 33, item 14): staff choose their password in the back office's frame,
 * in their own words, and are signed in at once (never the customer's reset and sign-in pages).
 */
export const STAFF_WELCOME = {
  title: "Welcome to the back office",
  lead: (role: string) =>
    `You were invited to the studio's back office as ${role === "Admin" ? "an" : "a"} ${role}. Choose the password you will sign in with.`,
  field: "Your password",
  hint: `At least 12 characters: a few unrelated words, or one from a password manager.`,
  button: "Set password and open the back office",
  busy: "Opening the back office…",
  expired:
    "This invitation link has expired or was already used. If you chose your password, sign in with it; if not, ask an Admin to invite you again.",
  signIn: "Sign in to the back office",
} as const;

/**
 * The same page when a staff member who forgot their password follows the reset link (`/staff/welcome?for=reset`):
 * their new password, in the back office's frame, and signed in at once.
 */
export const STAFF_RESET_PATH = "/staff/welcome?for=reset";

export const STAFF_RESET = {
  title: "Choose a new back-office password",
  lead: (role: string) =>
    `You sign in to the studio's back office as ${role === "Admin" ? "an" : "a"} ${role}. Choose your new password: every other session of your account ends.`,
  button: "Save password and open the back office",
  expired:
    "This link has expired or was already used. Ask for a new one from the sign-in page, or sign in if you already chose your password.",
  ask: "Ask for a new link",
} as const;

/** What a staff member reads on a back-office page their role does not open (the 403's sentence). */
export const staffRefusal = (role: string) =>
  `Your role, ${role}, does not open this page. An Admin can change your role on the users screen.`;

/** The sign-in page as a staff invitation links to it (`/login?for=staff`): staff words, no customer's "Sign Up". */
export const STAFF_SIGN_IN = {
  title: "Sign in to the back office",
  subtitle: "Use the email you were invited with and your usual password.",
} as const;
