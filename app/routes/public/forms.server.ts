import type { AppLoadContext } from "react-router";
import { HONEYPOT_FIELD } from "../../content/forms";
import type { FormResult } from "../../components/forms";
import { isAppError } from "../../../server/lib/errors";

/** The spec's success texts (spec 1, section 7); the visitor stays on the public site (DESIGN.md deviation 2). */
export const SUCCESS = {
  message: "Message is Updated",
  subscriber: "Subscribers is Updated",
} as const;

/** Handles a public form post (contact message or newsletter) and answers a FormResult the page can show. */
export async function handlePublicForm(
  kind: keyof typeof SUCCESS,
  request: Request,
  context: AppLoadContext,
): Promise<FormResult> {
  const form = await request.formData();
  const values: Record<string, string> = {};
  for (const [k, v] of form) if (typeof v === "string" && k !== HONEYPOT_FIELD) values[k] = v;
  const honeypot = form.get(HONEYPOT_FIELD);
  const visitor = { ip: context.clientIp, isBot: typeof honeypot === "string" && honeypot.trim() !== "" };
  try {
    if (kind === "message") await context.services.inbox.sendMessage(values, visitor);
    else await context.services.inbox.subscribe(values, visitor);
    return { ok: true, message: SUCCESS[kind] };
  } catch (error) {
    if (isAppError(error) && (error.status === 400 || error.status === 429)) {
      return { ok: false, message: error.message, errors: error.errors, values };
    }
    throw error;
  }
}
