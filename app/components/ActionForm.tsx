import { createContext, useContext, useEffect, useRef, useState, type FormEvent, type ReactNode } from "react";
import { getFormProps, useForm, type FieldMetadata, type Submission } from "@conform-to/react";
import { useActionData, useFetcher } from "react-router";
import type { z } from "zod";
import { FORM_ID_FIELD, type FormAnswer } from "../lib/form";
import { FormAlert } from "./FormAlert";
import { CheckCircleIcon } from "./StrokeIcon";
import { useToast } from "./toast";

export interface ActionFormOptions {
  /** Unique on the page; the action's answer names it, so that several forms can share one action. */
  id: string;
  /**
   * The service's schema, checked in the browser first (the same messages); the server checks again. The public
   * forms (contact, newsletter) pass none: their pages load no schema code, and the server's answer shows the same
   * messages at the fields.
   */
  schema?: z.ZodType;
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
}

export type ActionFormHandle = ReturnType<typeof useActionForm>;

type ParseWithZod = (typeof import("@conform-to/zod/v4"))["parseWithZod"];
let parseWithZod: ParseWithZod | undefined;
/**
 * Conform's zod adapter, loaded by the first form that has a schema: a static import would put zod in the chunk of
 * every page with a form, the public pages included (zod also trips their Content-Security-Policy: it probes `eval`).
 */
const loadParser = () =>
  import("@conform-to/zod/v4").then((m) => {
    parseWithZod = m.parseWithZod;
  });

/**
 * The browser half of the one form pattern (the server half is app/lib/form.server.ts): Conform's form state for a
 * form posting to a route action through a fetcher. It checks with the schema before sending, shows each field's
 * error, keeps what was typed after a refusal, knows when it is busy, and raises the answer's toasts. Without
 * JavaScript the same form is a plain HTML post, and the answer comes back with the page (shown in the form).
 */
export function useActionForm({
  id,
  schema,
  action,
  defaultValue,
  feedback = "toast",
  onSuccess,
  confirm = false,
  pageAnswer: givenAnswer,
}: ActionFormOptions) {
  const fetcher = useFetcher<FormAnswer>();
  const ownAnswer = useActionData() as FormAnswer | undefined;
  const routeAnswer = givenAnswer ?? ownAnswer;
  // An answer that came with the page: posted without JavaScript (or before the page was interactive).
  const pageAnswer = isAnswer(routeAnswer) && routeAnswer.form === id ? routeAnswer : undefined;
  const answer = fetcher.data ?? pageAnswer;
  const domId = `form-${id.replace(/[^A-Za-z0-9_-]/g, "-")}`;
  // Until the adapter has come (a few milliseconds after hydration), a submission is checked by the server alone.
  const [parser, setParser] = useState(() => parseWithZod);
  useEffect(() => {
    if (schema && !parser) void loadParser().then(() => setParser(() => parseWithZod));
  }, [schema, parser]);
  const [form, fields] = useForm<Record<string, unknown>>({
    id: domId,
    lastResult: answer?.result,
    defaultValue: defaultValue ? stringValues(defaultValue) : undefined,
    onValidate:
      schema && parser
        ? ({ formData }) =>
            parser(formData, { schema, disableAutoCoercion: true }) as Submission<Record<string, unknown>>
        : undefined,
    shouldValidate: "onSubmit",
    shouldRevalidate: "onInput",
  });
  const toast = useToast();
  // The accepted answer whose confirmation the visitor put away (again()): the form shows until the next success.
  const [dismissed, setDismissed] = useState<FormAnswer | null>(null);
  const handled = useRef<unknown>(null);
  useEffect(() => {
    const data = fetcher.data;
    // As soon as the answer arrives (before revalidation, which may replace this form with an edit link).
    if (fetcher.state === "submitting" || !data || handled.current === data) return;
    handled.current = data;
    // The form's answer replaces its own earlier error toasts (a success no longer sits beside a stale refusal).
    if (feedback === "toast") toast(data.ok ? "success" : "error", data.messages, { source: id });
    if (data.ok) onSuccess?.();
  }, [fetcher.state, fetcher.data, feedback, toast, onSuccess, id]);
  return {
    id,
    fetcher,
    form,
    fields,
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

function isAnswer(value: unknown): value is FormAnswer {
  return typeof value === "object" && value !== null && "form" in value && "result" in value;
}

const stringValues = (record: object) =>
  Object.fromEntries(
    Object.entries(record).flatMap(([k, v]) => (v === undefined || v === null ? [] : [[k, String(v)]])),
  );

/** What a field needs from its form: where its value starts, its error, and ids unique on the page. */
export interface FieldState {
  id: string;
  errorId: string;
  defaultValue?: string;
  error?: string;
  key: string | undefined;
}

const FieldsContext = createContext<ActionFormHandle | null>(null);

/** The state of the field `name` of the enclosing ActionForm, or nothing outside one. */
export function useFieldState(name: string): FieldState | undefined {
  const handle = useContext(FieldsContext);
  if (!handle) return undefined;
  const field = handle.fields[name] as FieldMetadata<unknown> | undefined;
  if (!field) return undefined;
  return {
    id: field.id,
    errorId: field.errorId,
    defaultValue: typeof field.initialValue === "string" ? field.initialValue : undefined,
    error: field.errors?.[0],
    key: field.key,
  };
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
  children: ReactNode;
}) {
  const { fetcher, form, shown } = handle;
  const formProps = getFormProps(form);
  return (
    <FieldsContext.Provider value={handle}>
      <fetcher.Form
        method="post"
        action={handle.action}
        {...formProps}
        onSubmit={(event) => {
          onSubmit?.(event);
          if (!event.defaultPrevented) formProps.onSubmit(event);
        }}
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
