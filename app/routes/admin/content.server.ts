import { data, type AppLoadContext } from "react-router";
import { getSection } from "../../content/registry";
import { registryFormId, type RegistryResult } from "../../components/RegistryForm";
import { requireAdmin } from "../../lib/guards.server";
import { isAppError } from "../../../server/lib/errors";

/** The action of every content screen: add or update one record of a section, answered as the form expects. */
export async function contentAction(
  request: Request,
  context: AppLoadContext,
): Promise<RegistryResult | ReturnType<typeof data>> {
  const viewer = await requireAdmin(request, context);
  const body = await request.formData();
  const values: Record<string, string> = {};
  for (const [k, v] of body) if (typeof v === "string") values[k] = v;
  const { intent, type, id, ...fields } = values;
  const section = type ? getSection(type) : undefined;
  if (!section || (intent !== "add" && intent !== "update")) throw data({ message: "Unknown form" }, { status: 400 });
  const form = registryFormId(intent, section.type, intent === "update" ? id : undefined);
  try {
    if (intent === "add") {
      await context.services.content.add(section.type, fields, viewer);
      return { form, ok: true, message: section.messages.added };
    }
    await context.services.content.update(section.type, id ?? "", fields, viewer);
    return { form, ok: true, message: section.messages.updated };
  } catch (error) {
    if (isAppError(error) && error.status < 500) {
      return {
        form,
        ok: false,
        message: error.errors.length ? "Please check the highlighted fields." : error.message,
        errors: error.errors,
        values: fields,
      };
    }
    throw error;
  }
}
