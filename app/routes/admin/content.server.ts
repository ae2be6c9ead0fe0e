import { data, type AppLoadContext } from "react-router";
import { deletedText, getSection } from "#domain/registry.ts";
import { sectionSchema } from "#domain/validation.ts";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";

/**
 * The action of every content screen: add, update, delete or move one record of a section (the one form pattern).
 */
export async function contentAction(request: Request, context: AppLoadContext) {
  const viewer = await requireStaff(request, context, "content");
  const form = await request.formData();
  const intent = form.get("intent");
  const type = form.get("type");
  const section = typeof type === "string" ? getSection(type) : undefined;
  if (!section) throw data({ message: "Unknown form" }, { status: 400 });
  const id = String(form.get("id") ?? "");
  const { content } = context.services;
  if (intent === "delete") {
    return formAction(form, {
      run: () => content.remove(section.type, id, viewer),
      success: deletedText(section),
    });
  }
  if (intent === "move") {
    const direction = form.get("direction");
    if (direction !== "up" && direction !== "down") throw data({ message: "Unknown direction" }, { status: 400 });
    return formAction(form, {
      run: () => content.move(section.type, id, direction, viewer),
      success: "Order saved",
    });
  }
  if (intent !== "add" && intent !== "update") throw data({ message: "Unknown form" }, { status: 400 });
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
