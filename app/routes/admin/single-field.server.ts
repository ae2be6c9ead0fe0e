import type { AppLoadContext } from "react-router";
import { requireAdmin } from "../../lib/guards.server";
import { isAppError } from "../../../server/lib/errors";
import type { FieldError } from "../../content/validation";

export type SingleFieldResult =
  { ok: true; message: string } | { ok: false; message: string; errors: FieldError[]; value: string };

/** The action of the admin-user and payment-account screens: one email field, add or update. */
export async function singleFieldAction(
  request: Request,
  context: AppLoadContext,
  field: "userEmail" | "paypalEmail",
  run: (
    intent: "add" | "update",
    id: string,
    input: Record<string, string>,
    actor: { id: string; email: string },
  ) => Promise<unknown>,
  message: string,
): Promise<SingleFieldResult> {
  const viewer = await requireAdmin(request, context);
  const form = await request.formData();
  const value = String(form.get(field) ?? "");
  const intent = form.get("intent") === "update" ? "update" : "add";
  try {
    await run(intent, String(form.get("id") ?? ""), { [field]: value }, viewer);
    return { ok: true, message };
  } catch (error) {
    if (isAppError(error) && error.status < 500)
      return { ok: false, message: error.message, errors: error.errors, value };
    throw error;
  }
}
