import type { AppLoadContext } from "react-router";
import { HONEYPOT_FIELD, messageSchema, subscriberSchema } from "#domain/public-forms.ts";
import { formAction } from "#app/lib/form.server.ts";

/** The spec's success texts (spec 1, section 7); the visitor stays on the public site (DESIGN.md deviation 2). */
export const SUCCESS = {
  message: "Message is Updated",
  subscriber: "Subscribers is Updated",
} as const;

/** Handles a public form post (contact message or newsletter) with the one form pattern. */
export async function handlePublicForm(kind: keyof typeof SUCCESS, request: Request, context: AppLoadContext) {
  const form = await request.formData();
  const honeypot = form.get(HONEYPOT_FIELD);
  const visitor = { ip: context.clientIp, isBot: typeof honeypot === "string" && honeypot.trim() !== "" };
  return kind === "message"
    ? formAction(form, {
        schema: messageSchema,
        run: (value) => context.services.inbox.sendMessage(value, visitor),
        success: SUCCESS.message,
        reset: true,
      })
    : formAction(form, {
        schema: subscriberSchema,
        run: (value) => context.services.newsletter.subscribe(value, visitor),
        success: SUCCESS.subscriber,
        reset: true,
      });
}
