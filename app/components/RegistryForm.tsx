import type { FieldDef } from "#domain/registry.ts";
import type { ListedRecord, SectionView } from "../content/section-view";
import { ActionForm, useActionForm } from "./ActionForm";
import { onDemand } from "./admin/on-demand";
import { PreviewButton } from "./admin/PreviewButton";
import { CheckboxField, TextAreaField, TextField } from "./forms";

// The image field (its preview and the library's button, with the image code they use) loads when a form shows one: a
// content screen whose records are all filled in shows no form (./admin/on-demand.ts).
const imageField = onDemand(() => import("./media/ImageField"));

/** The form id of one registry form: a content screen holds several (one per section, and the update modal). */
export const registryFormId = (intent: string, type: string, id = "") => `${intent}:${type}:${id}`;

/**
 * The one form for every content section, built from its registry entry as the screen's loader sends it
 * (app/content/section-view.ts): labels, kinds, required marks. It posts to the screen's action (intent add or
 * update, see app/routes/admin/content.server.ts) with the one form pattern: the spec's success text as a toast, what
 * was typed kept on an error, emptied after an add. Its Preview button shows the public page with what is typed,
 * saving nothing (decision 074).
 */
export function RegistryForm({
  section,
  record,
  intent,
  onDone,
}: {
  section: Pick<SectionView, "type" | "title" | "fields">;
  record?: ListedRecord;
  intent: "add" | "update";
  onDone?: () => void;
}) {
  const form = useActionForm({
    id: registryFormId(intent, section.type, record?._id),
    defaultValue: record,
    onSuccess: onDone,
  });
  return (
    <ActionForm
      handle={form}
      intent={intent}
      hidden={{ type: section.type, ...(record ? { id: record._id } : {}) }}
      className="grid gap-5 sm:grid-cols-2"
      testId={`form-${section.type}-${intent}`}
    >
      {section.fields.map((f) => (
        <RegistryField key={f.name} field={f} />
      ))}
      <div className="flex flex-wrap items-center gap-3 sm:col-span-2">
        <button type="submit" className="btn-primary" disabled={form.busy}>
          {form.busy ? "Saving…" : intent === "add" ? `Add ${section.title}` : `Update ${section.title}`}
        </button>
        {/* The public page with what is typed, before it goes live (decision 074). */}
        <PreviewButton />
      </div>
    </ActionForm>
  );
}

function RegistryField({ field: f }: { field: FieldDef }) {
  const common = { label: f.optional ? `${f.label} (optional)` : f.label, name: f.name, required: !f.optional };
  if (f.kind === "longText") return <TextAreaField {...common} className="sm:col-span-2" />;
  if (f.kind === "image" || f.kind === "media") {
    const { ImageField } = imageField();
    return <ImageField {...common} kind={f.kind} className="sm:col-span-2" />;
  }
  if (f.kind === "checkbox") return <CheckboxField label={f.label} name={f.name} />;
  if (f.kind === "number")
    return <TextField {...common} type="number" min={f.min} step={f.integer ? 1 : "any"} inputMode="decimal" />;
  const wide = f.kind === "link";
  return (
    <TextField
      {...common}
      type={f.kind === "email" ? "email" : "text"}
      inputMode={wide ? "url" : undefined}
      placeholder={wide ? "https://… or /path" : undefined}
      className={wide ? "sm:col-span-2" : undefined}
    />
  );
}
