import { useEffect, useRef } from "react";
import { useActionData, useFetcher } from "react-router";
import type { FieldDef, SectionDef } from "../content/registry";
import type { FieldError } from "../content/validation";
import { FormAlert } from "./AuthCard";
import { TextAreaField, TextField } from "./forms";
import { useToast } from "./toast";

/** `form` names the form the answer is for (see registryFormId): a page can hold several of them. */
export type RegistryResult = { form: string } & (
  { ok: true; message: string } | { ok: false; message: string; errors: FieldError[]; values: Record<string, string> }
);

export const registryFormId = (intent: string, type: string, id = "") => `${intent}:${type}:${id}`;

/**
 * The one form for every content section, built from its registry entry: labels, kinds, required marks. It posts to
 * the screen's action (intent add or update), shows the spec's success text as a toast, keeps what was typed on an
 * error, and clears itself after an add.
 */
export function RegistryForm({
  section,
  record,
  intent,
  action,
  onDone,
}: {
  section: SectionDef;
  record?: Record<string, unknown> & { _id: string };
  intent: "add" | "update";
  action?: string;
  onDone?: () => void;
}) {
  const fetcher = useFetcher<RegistryResult>();
  // Submitted before the page was interactive, the form posts as plain HTML: the answer then comes as the route's.
  const routeResult = useActionData<RegistryResult | undefined>();
  const toast = useToast();
  const form = useRef<HTMLFormElement>(null);
  const handled = useRef<unknown>(null);
  const pageResult = routeResult?.form === registryFormId(intent, section.type, record?._id) ? routeResult : undefined;
  const result = fetcher.data ?? pageResult;
  useEffect(() => {
    // As soon as the answer arrives (before revalidation, which may replace this form with an edit link or a notice).
    if (fetcher.state === "submitting" || !result || handled.current === result) return;
    handled.current = result;
    // An answer that came with the page is already shown in the form (below), with or without JavaScript.
    if (result !== pageResult) toast(result.ok ? "success" : "error", result.message);
    if (result.ok) {
      if (intent === "add") form.current?.reset();
      onDone?.();
    }
  }, [fetcher.state, result, pageResult, toast, intent, onDone]);
  const failed = result && !result.ok ? result : undefined;
  const value = (f: FieldDef) =>
    failed?.values[f.name] ?? (record?.[f.name] === undefined ? undefined : String(record[f.name]));
  const error = (f: FieldDef) => failed?.errors.find((e) => e.field === f.name)?.message;
  const busy = fetcher.state !== "idle";
  return (
    <fetcher.Form
      ref={form}
      method="post"
      action={action}
      noValidate
      className="grid gap-5 sm:grid-cols-2"
      data-testid={`form-${section.type}-${intent}`}
    >
      {result === pageResult && result ? (
        <div className="sm:col-span-2">
          <FormAlert tone={result.ok ? "success" : "error"}>{result.message}</FormAlert>
        </div>
      ) : null}
      <input type="hidden" name="intent" value={intent} />
      <input type="hidden" name="type" value={section.type} />
      {record ? <input type="hidden" name="id" value={record._id} /> : null}
      {section.fields.map((f) => {
        const common = {
          // Stable across answers: remounting here would wipe what the person typed while the page revalidates.
          key: `${f.name}-${record?._id ?? "new"}`,
          label: f.optional ? `${f.label} (optional)` : f.label,
          name: f.name,
          required: !f.optional,
          defaultValue: value(f),
          error: error(f),
        };
        if (f.kind === "longText") return <TextAreaField {...common} className="sm:col-span-2" />;
        if (f.kind === "number")
          return <TextField {...common} type="number" min={f.min} step={f.integer ? 1 : "any"} inputMode="decimal" />;
        const wide = f.kind === "link" || f.kind === "image" || f.kind === "media";
        return (
          <TextField
            {...common}
            type={f.kind === "email" ? "email" : "text"}
            inputMode={wide ? "url" : undefined}
            placeholder={wide ? "https://… or /path" : undefined}
            className={wide ? "sm:col-span-2" : undefined}
          />
        );
      })}
      <div className="sm:col-span-2">
        <button type="submit" className="btn-primary" disabled={busy}>
          {busy ? "Saving…" : intent === "add" ? `Add ${section.title}` : `Update ${section.title}`}
        </button>
      </div>
    </fetcher.Form>
  );
}
