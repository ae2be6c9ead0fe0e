import { ActionForm, useActionForm } from "./ActionForm";
import { TextField } from "./forms";

/** An email form of the back office (admin user, payment account): one field and its button, the one form pattern. */
export function SingleFieldForm({
  name,
  label,
  intent,
  id,
  defaultValue,
  submit,
  hidden,
}: {
  name: string;
  label: string;
  intent: "add" | "update";
  id?: string;
  defaultValue?: string;
  submit: string;
  /** Values the form posts without showing them (the admin user's role). */
  hidden?: Record<string, string>;
}) {
  const form = useActionForm({
    id: `${intent}:${id ?? ""}`,
    defaultValue: defaultValue === undefined ? undefined : { [name]: defaultValue },
  });
  return (
    <ActionForm handle={form} intent={intent} hidden={hidden} className="flex flex-wrap items-end gap-3">
      <TextField label={label} name={name} type="email" required className="min-w-64 flex-1" />
      <button type="submit" className="btn-dark" disabled={form.busy}>
        {form.busy ? "Saving…" : submit}
      </button>
    </ActionForm>
  );
}

/** The edit screen's card: an optional note above one record's single-field form (admin user, payment account). */
export function SingleFieldCard({ note, ...form }: { note?: string } & Parameters<typeof SingleFieldForm>[0]) {
  return (
    <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
      {note ? <p className="mb-4 text-sm text-mist">{note}</p> : null}
      <SingleFieldForm {...form} />
    </div>
  );
}
