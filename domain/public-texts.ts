// Texts of the public forms that pages show, kept apart from the forms' schemas: public pages import no zod.

/** What a newsletter signup is told after the spec's success text: the same whatever the address's state. */
export const SIGNUP_NEXT_STEP =
  "To finish, open the link we emailed to the address you gave (it works for 7 days). Already subscribed? Then nothing changes.";
