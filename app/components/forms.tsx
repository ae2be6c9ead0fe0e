import type { InputHTMLAttributes, ReactNode, SelectHTMLAttributes, TextareaHTMLAttributes } from "react";
import { HONEYPOT_FIELD } from "#domain/honeypot.ts";
import { useFieldState } from "./field-state";

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

/**
 * Label, control and error message, wired together for assistive technology; every form field uses it. Inside an
 * ActionForm the field takes its starting value, its error and its ids from the form (Conform's state); given
 * props win.
 */
function FieldShell({
  name,
  label,
  error: given,
  defaultValue,
  className,
  hideLabel,
  children,
}: FieldProps & {
  defaultValue: unknown;
  children: (control: Record<string, unknown>) => ReactNode;
}) {
  const state = useFieldState(name);
  const id = state?.id ?? `f-${name}`;
  const errorId = state?.errorId ?? `${id}-error`;
  const error = given ?? state?.error;
  const control = {
    key: state?.key,
    id,
    name,
    defaultValue: defaultValue ?? state?.defaultValue,
    "aria-invalid": error ? true : undefined,
    "aria-describedby": error ? errorId : undefined,
  };
  return (
    <div className={className}>
      <label htmlFor={id} className={hideLabel ? "sr-only" : "field-label"}>
        {label}
      </label>
      {children(control)}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** Splits a field's props into what FieldShell takes and what goes on the control. */
function splitField<P extends FieldProps & { defaultValue?: unknown }>(props: P) {
  const { label, name, error, className, hideLabel, defaultValue, ...rest } = props;
  return { shell: { label, name, error, className, hideLabel, defaultValue }, rest };
}

export function TextField(props: FieldProps & InputHTMLAttributes<HTMLInputElement>) {
  const { shell, rest } = splitField(props);
  return (
    <FieldShell {...shell}>
      {({ key, defaultValue: start, ...control }) => (
        <input
          key={key as string}
          className="field-input"
          {...control}
          {...rest}
          // A controlled value (a read-only field) has no starting value.
          defaultValue={"value" in props ? undefined : (start as string | undefined)}
        />
      )}
    </FieldShell>
  );
}

export function TextAreaField(props: FieldProps & TextareaHTMLAttributes<HTMLTextAreaElement>) {
  const { shell, rest } = splitField(props);
  return (
    <FieldShell {...shell}>
      {({ key, ...control }) => (
        <textarea key={key as string} rows={3} className="field-input" {...control} {...rest} />
      )}
    </FieldShell>
  );
}

/** A yes/no box with its label beside it (sends "on" when ticked, nothing otherwise), its error below. */
export function CheckboxField({ label, name, className }: { label: string; name: string; className?: string }) {
  const state = useFieldState(name);
  const id = state?.id ?? `f-${name}`;
  const errorId = state?.errorId ?? `${id}-error`;
  const start = state?.defaultValue as unknown;
  return (
    <div className={className ?? "sm:col-span-2"}>
      <label htmlFor={id} className="flex items-center gap-3 text-sm text-ink">
        <input
          key={state?.key}
          id={id}
          type="checkbox"
          name={name}
          defaultChecked={start === true || start === "on" || start === "true"}
          aria-invalid={state?.error ? true : undefined}
          aria-describedby={state?.error ? errorId : undefined}
          className="h-5 w-5 shrink-0 accent-forest"
        />
        {label}
      </label>
      {state?.error ? (
        <p id={errorId} className="field-error">
          {state.error}
        </p>
      ) : null}
    </div>
  );
}

/** A select with an empty first option (`placeholder`), so that "nothing chosen" is a value the schema can refuse. */
export function SelectField({
  options,
  placeholder = "Select",
  ...props
}: FieldProps &
  SelectHTMLAttributes<HTMLSelectElement> & {
    options: readonly { value: string; label: string }[];
    placeholder?: string;
  }) {
  const { shell, rest } = splitField(props);
  return (
    <FieldShell {...shell}>
      {({ key, ...control }) => (
        <select
          key={key as string}
          className="field-input"
          {...control}
          {...rest}
          defaultValue={(control.defaultValue as string | undefined) ?? ""}
        >
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

/**
 * The submit button of a form that deletes, erases or stops something: red, and saying it is at work (`busyLabel`)
 * while the answer is awaited. `compact` in a dialog's row of buttons.
 */
export function DangerButton({
  busy,
  busyLabel,
  children,
  compact = false,
  testId,
}: {
  busy: boolean;
  busyLabel: string;
  children: ReactNode;
  compact?: boolean;
  testId?: string;
}) {
  return (
    <button
      type="submit"
      className={`btn bg-red-700 text-white hover:bg-red-800 ${compact ? "px-5 py-2 text-sm" : ""}`}
      disabled={busy}
      data-testid={testId}
    >
      {busy ? busyLabel : children}
    </button>
  );
}
