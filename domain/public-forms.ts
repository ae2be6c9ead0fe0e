import { z } from "zod";
import { emailAddress, requiredText, text } from "./fields";

/** The public forms' rules, shared by the browser (instant messages) and the server (the decision). */
const email = emailAddress("Email", { invalid: "Please enter a valid email address" });

/** The contact form 'Send Us Message'. messageStatus is not the visitor's to choose: every message starts UnRead. */
export const messageSchema = z.object({
  name: requiredText("Full name", 120),
  email,
  // The spec sets no rule on the phone: any text a person may write a number in (3-4 digit extensions, letters,
  // "ask for Sam"), only of a sane length.
  number: text("Phone number", 40).optional().default(""),
  subject: requiredText("Subject", 200),
  message: requiredText("Message", 5000),
});
export type MessageInput = z.infer<typeof messageSchema>;

export const subscriberSchema = z.object({ subemail: email });
/** What a newsletter signup is told after the spec's success text: the same whatever the address's state. */
export const SIGNUP_NEXT_STEP =
  "To finish, open the link we emailed to the address you gave (it works for 7 days). Already subscribed? Then nothing changes.";
export type SubscriberInput = z.infer<typeof subscriberSchema>;

/** The name of the hidden field that only bots fill in. */
export const HONEYPOT_FIELD = "website";
