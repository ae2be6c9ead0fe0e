import { useEffect, useRef } from "react";
import { useActionData, useFetcher } from "react-router";
import type { FieldError } from "../content/validation";
import { FormAlert } from "./AuthCard";
import { TextField } from "./forms";
import { useToast } from "./toast";

/** `form` names the form the answer is for (singleFieldFormId): a page can hold several of them. */
export type SingleFieldResult = { form: string } & (
  { ok: true; message: string } | { ok: false; message: string; errors: FieldError[]; value: string }
);

export const singleFieldFormId = (intent: string, id = "") => `${intent}:${id}`;

/** An email form of the back office (admin user, payment account), with the spec's toast and kept input on error. */
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
  hidden?: Record<string, string>;
}) {
  const fetcher = useFetcher<SingleFieldResult>();
  // Submitted before the page was interactive, the form posts as plain HTML: the answer then comes as the route's.
  const routeResult = useActionData<SingleFieldResult | undefined>();
  const pageResult = routeResult?.form === singleFieldFormId(intent, id) ? routeResult : undefined;
  const result = fetcher.data ?? pageResult;
  const toast = useToast();
  const handled = useRef<unknown>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const r = result;
    // As soon as the answer arrives (before revalidation, which may replace this form with an edit link).
    if (fetcher.state === "submitting" || !r || handled.current === r) return;
    handled.current = r;
    // An answer that came with the page is already shown in the form (below), with or without JavaScript.
    if (r !== pageResult) toast(r.ok ? "success" : "error", r.message);
    if (r.ok && intent === "add") form.current?.reset();
  }, [fetcher.state, result, pageResult, toast, intent]);
  const failed = result && !result.ok ? result : undefined;
  return (
    <fetcher.Form ref={form} method="post" noValidate className="flex flex-wrap items-end gap-3">
      {result === pageResult && result ? (
        <div className="w-full">
          <FormAlert tone={result.ok ? "success" : "error"}>{result.message}</FormAlert>
        </div>
      ) : null}
      <input type="hidden" name="intent" value={intent} />
      {id ? <input type="hidden" name="id" value={id} /> : null}
      {Object.entries(hidden ?? {}).map(([k, v]) => (
        <input key={k} type="hidden" name={k} value={v} />
      ))}
      <TextField
        label={label}
        name={name}
        type="email"
        required
        defaultValue={failed?.value ?? defaultValue}
        error={failed?.errors[0]?.message ?? (failed ? failed.message : undefined)}
        className="min-w-64 flex-1"
      />
      <button type="submit" className="btn-dark" disabled={fetcher.state !== "idle"}>
        {fetcher.state !== "idle" ? "Saving…" : submit}
      </button>
    </fetcher.Form>
  );
}
