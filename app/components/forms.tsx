import {
  useEffect,
  useRef,
  useState,
  type FormEvent,
  type InputHTMLAttributes,
  type ReactNode,
  type SelectHTMLAttributes,
  type TextareaHTMLAttributes,
} from "react";
import type { ZodType } from "zod";
import type { FetcherWithComponents } from "react-router";
import { HONEYPOT_FIELD } from "../content/forms";
import { parseWith, type FieldError } from "../content/validation";
import { useToast } from "./toast";

/** What a public form's action answers: success, or the field errors with what was typed. */
export type FormResult =
  { ok: true; message: string } | { ok: false; message: string; errors: FieldError[]; values: Record<string, string> };

export function errorFor(result: FormResult | undefined, field: string): string | undefined {
  return result && !result.ok ? result.errors.find((e) => e.field === field)?.message : undefined;
}

/** Toasts the outcome of a fetcher submission and clears the form after a success. */
export function useFormFeedback(fetcher: FetcherWithComponents<FormResult | undefined>) {
  const toast = useToast();
  const formRef = useRef<HTMLFormElement>(null);
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const data = fetcher.data;
    if (fetcher.state !== "idle" || !data || handled.current === data) return;
    handled.current = data;
    if (data.ok) {
      toast("success", data.message);
      formRef.current?.reset();
    } else {
      toast("error", data.message);
    }
  }, [fetcher.state, fetcher.data, toast]);
  return formRef;
}

/** A field hidden from people; bots that fill it in are answered with success and ignored. */
export function Honeypot() {
  return (
    <div aria-hidden="true" className="absolute -left-[9999px] h-px w-px overflow-hidden">
      <label>
        Leave this field empty
        <input type="text" name={HONEYPOT_FIELD} tabIndex={-1} autoComplete="off" defaultValue="" />
      </label>
    </div>
  );
}

type FieldProps = {
  label: string;
  name: string;
  error?: string;
  className?: string;
  hideLabel?: boolean;
};

/** Label, control and error message, wired together for assistive technology; every form field uses it. */
function FieldShell({
  id,
  label,
  error,
  className,
  hideLabel,
  children,
}: Omit<FieldProps, "name"> & { id: string; children: (aria: Record<string, unknown>) => ReactNode }) {
  const aria = { id, "aria-invalid": error ? true : undefined, "aria-describedby": error ? `${id}-error` : undefined };
  return (
    <div className={className}>
      <label htmlFor={id} className={hideLabel ? "sr-only" : "field-label"}>
        {label}
      </label>
      {children(aria)}
      {error ? (
        <p id={`${id}-error`} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

export function TextField({
  label,
  name,
  error,
  className,
  hideLabel,
  ...input
}: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  return (
    <FieldShell id={`f-${name}`} label={label} error={error} className={className} hideLabel={hideLabel}>
      {(aria) => <input name={name} className="field-input" {...aria} {...input} />}
    </FieldShell>
  );
}

export function TextAreaField({
  label,
  name,
  error,
  className,
  hideLabel,
  ...input
}: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  return (
    <FieldShell id={`f-${name}`} label={label} error={error} className={className} hideLabel={hideLabel}>
      {(aria) => <textarea name={name} rows={3} className="field-input" {...aria} {...input} />}
    </FieldShell>
  );
}

/** A select with an empty first option (`placeholder`), so that "nothing chosen" is a value the schema can refuse. */
export function SelectField({
  label,
  name,
  error,
  className,
  hideLabel,
  options,
  placeholder = "Select",
  ...select
}: FieldProps &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: readonly { value: string; label: string }[];
    placeholder?: string;
  }) {
  return (
    <FieldShell id={`f-${name}`} label={label} error={error} className={className} hideLabel={hideLabel}>
      {(aria) => (
        <select name={name} className="field-input" {...aria} {...select}>
          <option value="">{placeholder}</option>
          {options.map((o) => (
            <option key={o.value} value={o.value}>
              {o.label}
            </option>
          ))}
        </select>
      )}
    </FieldShell>
  );
}

/** What an account action answers on failure: a message for the whole form and/or one per field. */
export type ActionFailure = { message?: string; errors?: FieldError[]; values?: Record<string, string> };

/**
 * Checks a form in the browser with the same schema the server uses, before it is sent; the server's answer (when the
 * browser check passed) takes over. Returns the message for each field and the submit handler.
 */
export function useClientValidation<T>(schema: ZodType<T>, server: ActionFailure | undefined) {
  const [client, setClient] = useState<FieldError[] | null>(null);
  const [lastServer, setLastServer] = useState(server);
  if (server !== lastServer) {
    setLastServer(server);
    setClient(null);
  }
  const errors = client ?? server?.errors ?? [];
  return {
    error: (field: string) => errors.find((e) => e.field === field)?.message,
    onSubmit(event: FormEvent<HTMLFormElement>) {
      const values = Object.fromEntries(new FormData(event.currentTarget));
      const result = parseWith(schema, values);
      if (!result.ok) {
        event.preventDefault();
        setClient(result.errors);
      } else {
        setClient(null);
      }
    },
  };
}
