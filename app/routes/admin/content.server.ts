import { data, type AppLoadContext } from "react-router";
import { getSection } from "../../../domain/registry";
import { sectionSchema } from "../../../domain/validation";
import { formAction } from "../../lib/form.server";
import { requireAdmin } from "../../lib/guards.server";

/** The action of every content screen: add or update one record of a section (the one form pattern). */
export async function contentAction(request: Request, context: AppLoadContext) {
  const viewer = await requireAdmin(request, context);
  const form = await request.formData();
  const intent = form.get("intent");
  const type = form.get("type");
  const section = typeof type === "string" ? getSection(type) : undefined;
  if (!section || (intent !== "add" && intent !== "update")) throw data({ message: "Unknown form" }, { status: 400 });
  const id = String(form.get("id") ?? "");
  return formAction(form, {
    schema: sectionSchema(section),
    run: async (fields) => {
      if (intent === "add") await context.services.content.add(section.type, fields, viewer);
      else await context.services.content.update(section.type, id, fields, viewer);
    },
    success: intent === "add" ? section.messages.added : section.messages.updated,
    invalid: "Please check the highlighted fields.",
    reset: intent === "add",
  });
}
