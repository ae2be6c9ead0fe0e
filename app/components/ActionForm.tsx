import { useContext, useEffect, useMemo, useRef, useState, type FormEvent, type ReactNode } from "react";
import { useActionData, useFetcher } from "react-router";
import { FORM_ID_FIELD, type FormAnswer } from "../lib/form";
import { FieldsContext } from "./field-state";
import { FormAlert } from "./FormAlert";
import { CheckCircleIcon } from "./StrokeIcon";
import { useToast } from "./toast";

export interface ActionFormOptions {
  /** Unique on the page; the action's answer names it, so that several forms can share one action. */
  id: string;
  /** Another route's action (the contact form on every page posts to /contact). */
  action?: string;
  /** The record being edited. */
  defaultValue?: object;
  /** "toast" (default): the spec's toasts; "inline": the answer stays written in the form (account pages). */
  feedback?: "toast" | "inline";
  /** Told once the service accepted the form (closes a modal). */
  onSuccess?: () => void;
  /**
   * After a success the form gives way to a confirmation in its place (the visitor's contact message and newsletter
   * signup): `confirmed` turns true, and `again()` brings the empty form back.
   */
  confirm?: boolean;
  /**
   * The answer that came with the page from another route's action, for a form drawn outside that route (the footer's
   * newsletter form, answered by /newsletter); by default the enclosing route's own action data.
   */
  pageAnswer?: unknown;
  /** Re-render as the user types, so that `fields[name].value` follows what is typed (a live length hint). */
  live?: boolean;
}

export type ActionFormHandle = ReturnType<typeof useActionForm>;

/** What a form's field shows: its ids, what it starts with, its error, and (read live) what is typed in it now. */
export interface FieldMeta {
  id: string;
  errorId: string;
  descriptionId: string;
  name: string;
  /** The field's messages from the last answer (the server's checks), none before. */
  errors?: string[];
  /** What was typed when the server refused the form, else the record's value. */
  initialValue?: unknown;
  /** What the field holds now in a `live` form; elsewhere what it started with. */
  value?: unknown;
  /** Changes when the form is emptied after a success, so that fields start again from their default. */
  key: string | undefined;
}

/**
 * The browser half of the one form pattern (the server half is app/lib/form.server.ts): a form posting to a route
 * action through a fetcher. The server checks every form (with the service's zod schema) and its answer is shown as
 * it comes: each field's error at the field, the focus on the first refused field, what was typed kept, an add form
 * emptied after a success, and the answer's toasts. No validation library is shipped to the browser (issue 28): the
 * same messages come from the server, with or without JavaScript (without it the answer comes back with the page).
 */
export function useActionForm({
  id,
  action,
  defaultValue,
  feedback = "toast",
  onSuccess,
  confirm = false,
  pageAnswer: givenAnswer,
  live = false,
}: ActionFormOptions) {
  const fetcher = useFetcher<FormAnswer>();
  const ownAnswer = useActionData() as FormAnswer | undefined;
  const routeAnswer = givenAnswer ?? ownAnswer;
  // An answer that came with the page: posted without JavaScript (or before the page was interactive).
  const pageAnswer = isAnswer(routeAnswer) && routeAnswer.form === id ? routeAnswer : undefined;
  const answer = fetcher.data ?? pageAnswer;
  const domId = `form-${id.replace(/[^A-Za-z0-9_-]/g, "-")}`;
  const [element, setElement] = useState<HTMLFormElement | null>(null);
  // What is typed now, kept only for a `live` form (other forms do not re-render as the user types).
  const [typed, setTyped] = useState<Record<string, unknown> | null>(null);
  const result = answer?.result;
  const emptied = result !== undefined && result.initialValue === null;
  // A success that empties the form gives its fields a new key: they start again from their defaults.
  const key = emptied && answer ? String(answerNumber(answer)) : undefined;
  const defaults = useMemo(() => (defaultValue ? stringValues(defaultValue) : {}), [defaultValue]);
  const fields = useMemo(() => {
    const errors = emptied ? {} : (result?.error ?? {});
    const initial = emptied || !result?.initialValue ? defaults : (result.initialValue as Record<string, unknown>);
    const cache = new Map<string, FieldMeta>();
    return new Proxy({} as Record<string, FieldMeta>, {
      get(_target, name) {
        if (typeof name !== "string") return undefined;
        let meta = cache.get(name);
        if (!meta) {
          const fieldId = `${domId}-${name}`;
          const fieldErrors = errors[name] ?? undefined;
          meta = {
            id: fieldId,
            errorId: `${fieldId}-error`,
            descriptionId: `${fieldId}-description`,
            name,
            errors: fieldErrors?.length ? fieldErrors : undefined,
            initialValue: initial[name],
            key,
            value: typed ? typed[name] : initial[name],
          };
          cache.set(name, meta);
        }
        return meta;
      },
    });
  }, [domId, result, emptied, defaults, key, typed]);
  const toast = useToast();
  // The accepted answer whose confirmation the visitor put away (again()): the form shows until the next success.
  const [dismissed, setDismissed] = useState<FormAnswer | null>(null);
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const data = fetcher.data;
    // As soon as the answer arrives (before revalidation, which may replace this form with an edit link).
    if (fetcher.state === "submitting" || !data || handled.current === data) return;
    handled.current = data;
    // Emptied (its reset event forgets what was typed), or the focus on the first field the answer refused.
    if (data.result.initialValue === null) element?.reset();
    else if (!data.ok) focusFirstRefused(element, data.result.error);
    // The form's answer replaces its own earlier error toasts (a success no longer sits beside a stale refusal).
    if (feedback === "toast") toast(data.ok ? "success" : "error", data.messages, { source: id });
    if (data.ok) onSuccess?.();
  }, [fetcher.state, fetcher.data, feedback, toast, onSuccess, id, element]);
  return {
    id,
    fetcher,
    form: { id: domId, attach: setElement },
    fields,
    /** Keeps `value` current in a `live` form (see FieldMeta.value). */
    onTyped: (form: HTMLFormElement | null) => {
      if (live) setTyped(form ? formValues(form) : null);
    },
    action,
    answer,
    /** What the form itself shows: the answer without JavaScript, or every answer on the account pages. */
    shown: feedback === "inline" ? answer : pageAnswer,
    feedback,
    busy: fetcher.state !== "idle",
    /** A success is being confirmed in the form's place (with `confirm`). */
    confirmed: confirm && fetcher.data?.ok === true && fetcher.data !== dismissed,
    again: () => setDismissed(fetcher.data ?? null),
  };
}

/** A number per answer, the same at every render: the key of an emptied form's fields. */
const answerNumbers = new WeakMap<object, number>();
let answersNumbered = 0;
function answerNumber(answer: object): number {
  const known = answerNumbers.get(answer);
  if (known !== undefined) return known;
  answerNumbers.set(answer, ++answersNumbered);
  return answersNumbered;
}

/** As a refused form did with the browser's own checks: the focus goes to the first field the answer refused. */
function focusFirstRefused(form: HTMLFormElement | null, errors: Record<string, string[] | null> | undefined) {
  if (!form || !errors) return;
  for (const element of form.elements) {
    const name = (element as HTMLInputElement).name;
    if (name && errors[name]?.length && element instanceof HTMLElement && !(element as HTMLInputElement).hidden) {
      if ((element as HTMLInputElement).type === "hidden") continue;
      element.focus();
      return;
    }
  }
}

function formValues(form: HTMLFormElement): Record<string, unknown> {
  const values: Record<string, unknown> = {};
  const data = new FormData(form);
  for (const name of new Set(data.keys())) {
    const all = data.getAll(name).map((v) => (typeof v === "string" ? v : v.name));
    values[name] = all.length > 1 ? all : all[0];
  }
  return values;
}

function isAnswer(value: unknown): value is FormAnswer {
  return typeof value === "object" && value !== null && "form" in value && "result" in value;
}

const stringValues = (record: object): Record<string, unknown> =>
  Object.fromEntries(
    Object.entries(record).flatMap(([k, v]) => (v === undefined || v === null ? [] : [[k, String(v)]])),
  );

/** A field's state from its form: kept apart (./field-state.ts), so that fields outside an ActionForm need not load it. */
export { useFieldState, type FieldState } from "./field-state";

/** What the enclosing form sent when the server refused it (the answer's values as typed), or nothing. */
export function useSubmittedValues(): Record<string, unknown> | undefined {
  const answer = useContext(FieldsContext)?.answer;
  if (!answer || answer.ok || !answer.result.initialValue) return undefined;
  return answer.result.initialValue;
}

/**
 * The form element of every page form: posts to the route action through the handle's fetcher, names itself for the
 * answer, carries the intent (which of a route's forms this is) and any other hidden values, and shows the answer
 * where the form should (see useActionForm). Fields inside it (TextField, SelectField …) wire themselves to it.
 */
export function ActionForm({
  handle,
  intent,
  hidden,
  className,
  testId,
  inPlace,
  onSubmit,
  onFieldsChange,
  encType,
  children,
}: {
  handle: ActionFormHandle;
  intent?: string;
  hidden?: Record<string, string>;
  className?: string;
  testId?: string;
  /**
   * On a plain public page (no React), the page's one script posts the form in the background and puts the answer
   * in its place (app/lib/plain-page-script.ts); without scripts it stays a plain post.
   */
  inPlace?: boolean;
  /** Runs first; `preventDefault()` stops the post (a confirmation). */
  onSubmit?: (event: FormEvent<HTMLFormElement>) => void;
  /** Runs on every change of a field, with the form (a summary worked out from what is typed). */
  onFieldsChange?: (form: HTMLFormElement) => void;
  /** A form whose text is large (an article's body): sent as multipart, without URL-encoding's tripled bytes. */
  encType?: "multipart/form-data";
  children: ReactNode;
}) {
  const { fetcher, shown } = handle;
  const { id, attach } = handle.form;
  return (
    <FieldsContext.Provider value={handle}>
      <fetcher.Form
        method="post"
        action={handle.action}
        encType={encType}
        id={id}
        ref={attach}
        // The server checks every field and answers with its messages (the browser's own bubbles would differ).
        noValidate
        onSubmit={onSubmit}
        onInput={(event) => {
          handle.onTyped(event.currentTarget);
          onFieldsChange?.(event.currentTarget);
        }}
        onReset={() => handle.onTyped(null)}
        className={className}
        data-testid={testId}
        data-in-place={inPlace ? "" : undefined}
      >
        <input type="hidden" name={FORM_ID_FIELD} value={handle.id} />
        {intent ? <input type="hidden" name="intent" value={intent} /> : null}
        {Object.entries(hidden ?? {}).map(([name, value]) => (
          <input key={name} type="hidden" name={name} value={value} />
        ))}
        {shown ? <AnswerAlert answer={shown} everything={handle.feedback === "toast"} /> : null}
        {children}
      </fetcher.Form>
    </FieldsContext.Provider>
  );
}

/**
 * The answer, come with the page, of a form the page no longer shows (a singleton's add form, replaced by its edit
 * link once saved): without JavaScript it would otherwise be lost.
 */
export function PageAnswer({ form }: { form: string }) {
  const answer = useActionData() as FormAnswer | undefined;
  return isAnswer(answer) && answer.form === form ? <AnswerAlert answer={answer} everything /> : null;
}

/**
 * The successful answer, come with the page, of one of a list's row forms (ids `{prefix}{record id}`) whose row the
 * success removed (a restored or archived record): without JavaScript it would otherwise be lost. A refusal stays in
 * the row's own form.
 */
export function RowAnswer({ prefix }: { prefix: string }) {
  const answer = useActionData() as FormAnswer | undefined;
  if (!isAnswer(answer) || !answer.ok || !answer.form.startsWith(prefix)) return null;
  return (
    <div className="mb-6">
      <AnswerAlert answer={answer} everything />
    </div>
  );
}

/**
 * The answer written in the form. In place of a toast (no JavaScript), every text; on the account pages, a success
 * text or the refusal of the form as a whole (a refusal of fields is told at the fields).
 */
function AnswerAlert({ answer, everything }: { answer: FormAnswer; everything: boolean }) {
  const texts = everything || answer.ok ? answer.messages : (answer.result.error?.[""] ?? []);
  if (!texts.length) return null;
  return (
    <div className="col-span-full w-full">
      <FormAlert tone={answer.ok ? "success" : "error"}>{texts.join(" ")}</FormAlert>
    </div>
  );
}

/**
 * What a visitor sees in a form's place once it was accepted (with `confirm`): a heading that takes the focus (the
 * button just pressed is gone), a sentence, and a way back to the empty form.
 */
export function FormConfirmation({
  handle,
  title,
  againText,
  tone = "light",
  className = "",
  children,
}: {
  handle: ActionFormHandle;
  title: string;
  againText: string;
  tone?: "light" | "dark";
  className?: string;
  children: ReactNode;
}) {
  const heading = useRef<HTMLParagraphElement>(null);
  useEffect(() => heading.current?.focus(), []);
  const dark = tone === "dark";
  return (
    <div role="status" data-testid={`${handle.id}-confirmation`} className={className}>
      <p
        ref={heading}
        tabIndex={-1}
        className={`flex items-center gap-2 font-serif text-xl focus:outline-none ${dark ? "text-white" : "text-forest"}`}
      >
        <CheckCircleIcon size={24} className={dark ? "text-brass" : "text-clay"} />
        {title}
      </p>
      <div className={`mt-2 text-sm leading-relaxed ${dark ? "text-white/80" : "text-ink/80"}`}>{children}</div>
      <button
        type="button"
        onClick={handle.again}
        className={`mt-4 text-sm font-semibold underline underline-offset-4 ${dark ? "text-white hover:text-brass" : "text-clay hover:text-clay-dark"}`}
      >
        {againText}
      </button>
    </div>
  );
}
