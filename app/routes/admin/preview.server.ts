import { data, type AppLoadContext } from "react-router";
import { withUnsavedChange, type UnsavedChange } from "#domain/content-preview.ts";
import { getSection, isSectionType, type SectionDef, type SectionType } from "#domain/registry.ts";
import { siteName } from "#domain/site.ts";
import { sectionSchema } from "#domain/validation.ts";
import { pickContent } from "#app/content/pages.ts";
import { previewPage, previewPageName, previewPages } from "#app/content/preview.ts";
import { checkForm, firstErrors } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";

/** A preview that could not be drawn, and why: the messages a save of the same form would give. */
export interface PreviewRefused {
  ok: false;
  title: string;
  message: string;
  /** Each refused field's label and message. */
  problems: { label: string; message: string }[];
}

const refused = (status: number, title: string, message: string, problems: PreviewRefused["problems"] = []) =>
  data<PreviewRefused>({ ok: false, title, message, problems }, { status });

/**
 * The preview of a content form's unsaved change (decision 074): what a content screen's form posts to save (intent
 * add, update or delete; section type; record id; fields), read with the very schema and messages a save uses, laid
 * over the site's content snapshot (domain/content-preview.ts) and drawn as the public page that shows the section.
 * Nothing is written; the answer is private and never kept (the route's headers).
 */
export async function previewAction(request: Request, context: AppLoadContext) {
  await requireStaff(request, context, "content");
  const form = await request.formData();
  const type = String(form.get("type") ?? "");
  const section = isSectionType(type) ? getSection(type) : undefined;
  if (!section) return refused(400, "Nothing to preview", "This form is not one of the site's content sections.");
  const page = previewPage(section.type as SectionType, form.get("page"));
  if (!page) {
    return refused(
      400,
      "Nothing to preview",
      `${section.title} is not drawn on a page of the site: nothing to preview.`,
    );
  }
  const change = unsavedChange(section, form);
  if (!change.ok) return change.answer;
  const snapshot = await context.services.content.snapshot();
  const overlaid = withUnsavedChange(snapshot, change.value);
  if (!overlaid.ok) return refused(overlaid.status, "The preview cannot be drawn", overlaid.message);
  const content = pickContent(overlaid.snapshot, page);
  const frame = { chrome: pickContent(overlaid.snapshot, "chrome"), siteName: siteName(overlaid.snapshot) };
  return {
    ok: true as const,
    page,
    pageName: previewPageName(page),
    sectionTitle: section.title,
    removing: change.value.op === "remove",
    /** The other pages that show the section, each drawn by posting the same form again. */
    otherPages: previewPages(section.type as SectionType)
      .filter((p) => p !== page)
      .map((p) => ({ page: p, name: previewPageName(p) })),
    posted: [...form].flatMap(([name, value]) =>
      typeof value === "string" && name !== "page" ? [[name, value] as [string, string]] : [],
    ),
    content,
    frame,
    // The library images the page draws, those picked in the form and not saved yet among them.
    media: await context.services.media.describe([content, frame.chrome]),
  };
}

export type PreviewAnswer = Exclude<Awaited<ReturnType<typeof previewAction>>, { data: unknown }>;

/** The change the form describes, its fields checked as a save checks them. */
function unsavedChange(
  section: SectionDef,
  form: FormData,
): { ok: true; value: UnsavedChange } | { ok: false; answer: ReturnType<typeof refused> } {
  const intent = form.get("intent");
  const type = section.type as SectionType;
  const id = String(form.get("id") ?? "");
  if (intent === "delete") return { ok: true, value: { type, op: "remove", id } };
  if (intent !== "add" && intent !== "update") {
    return { ok: false, answer: refused(400, "Nothing to preview", "This form cannot be previewed.") };
  }
  const submission = checkForm(form, sectionSchema(section));
  if (submission.status !== "success") {
    const problems = Object.entries(firstErrors(submission.error)).map(([name, messages]) => ({
      label: section.fields.find((f) => f.name === name)?.label ?? "",
      message: messages[0]!,
    }));
    return {
      ok: false,
      answer: refused(
        400,
        "The preview cannot be drawn yet",
        "Saving this form would be refused for the reasons below. Correct them in the form, then preview again.",
        problems,
      ),
    };
  }
  // Exactly what a save stores: the schema keeps the section's fields only.
  const fields = submission.value;
  return {
    ok: true,
    value: intent === "add" ? { type, op: "add", fields } : { type, op: "update", id, fields },
  };
}
