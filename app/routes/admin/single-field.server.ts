import type { AppLoadContext } from "react-router";
import { requireAdmin } from "../../lib/guards.server";
import { isAppError } from "../../../server/lib/errors";
import { singleFieldFormId, type SingleFieldResult } from "../../components/SingleFieldForm";

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
  const body = await request.formData();
  const value = String(body.get(field) ?? "");
  const intent = body.get("intent") === "update" ? "update" : "add";
  const id = String(body.get("id") ?? "");
  const form = singleFieldFormId(intent, intent === "update" ? id : undefined);
  try {
    await run(intent, id, { [field]: value }, viewer);
    return { form, ok: true, message };
  } catch (error) {
    if (isAppError(error) && error.status < 500)
      return { form, ok: false, message: error.message, errors: error.errors, value };
    throw error;
  }
}
