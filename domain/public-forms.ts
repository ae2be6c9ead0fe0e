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
export type SubscriberInput = z.infer<typeof subscriberSchema>;

export { HONEYPOT_FIELD } from "./honeypot";
export { SIGNUP_NEXT_STEP } from "./public-texts";
