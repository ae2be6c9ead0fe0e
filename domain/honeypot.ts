/** The name of the hidden field that only bots fill in (its own module: the public pages draw it without zod). */
export const HONEYPOT_FIELD = "website";
