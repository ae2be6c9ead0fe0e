import { useEffect, useRef } from "react";
import { useFetcher } from "react-router";
import type { SingleFieldResult } from "../routes/admin/single-field.server";
import { TextField } from "./forms";
import { useToast } from "./toast";

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
  const toast = useToast();
  const handled = useRef<unknown>(null);
  const form = useRef<HTMLFormElement>(null);
  useEffect(() => {
    const r = fetcher.data;
    // As soon as the answer arrives (before revalidation, which may replace this form with an edit link).
    if (fetcher.state === "submitting" || !r || handled.current === r) return;
    handled.current = r;
    toast(r.ok ? "success" : "error", r.message);
    if (r.ok && intent === "add") form.current?.reset();
  }, [fetcher.state, fetcher.data, toast, intent]);
  const failed = fetcher.data && !fetcher.data.ok ? fetcher.data : undefined;
  return (
    <fetcher.Form ref={form} method="post" noValidate className="flex flex-wrap items-end gap-3">
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
