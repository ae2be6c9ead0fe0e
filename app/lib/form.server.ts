import { parseWithZod } from "@conform-to/zod/v4";
import { data } from "react-router";
import { z } from "zod";
import { isAppError } from "#server/lib/errors.ts";
import { FORM_ID_FIELD, type FormAnswer } from "./form";

type Messages = string | string[] | undefined;

/** Without a schema: the fields as typed, less the pattern's own (form id, intent). */
const AS_TYPED = z
  .record(z.string(), z.unknown())
  .transform(({ [FORM_ID_FIELD]: _form, intent: _intent, ...fields }) => fields);

export interface FormActionOptions<S extends z.ZodType, R> {
  /**
   * The schema the service itself checks with: the same messages, before the service is called. Without one (a
   * service whose schema stays on the server), the form's fields go to the service as typed and it answers alone.
   */
  schema?: S;
  /** Calls the service with the checked value; a refusal it throws (AppError below 500) becomes the form's answer. */
  run: (value: z.output<S>) => Promise<R>;
  /** The spec's success text(s), shown as toasts (or in the form without JavaScript). */
  success?: Messages | ((result: R) => Messages);
  /** The spec's text for any refusal, instead of the service's own message (field errors still show). */
  failure?: string;
  /** The text for a refusal with field errors (default: the first field's message). */
  invalid?: string;
  /** Empty the form after a success (an add form); an edit form keeps the saved values. */
  reset?: boolean;
  /** Never sent back to the page (passwords). */
  hide?: string[];
  /** What a success answers to the page this once (a new API key's secret): never stored, never in a toast. */
  data?: (result: R) => Record<string, string>;
  /**
   * A service that calls an outside provider (PayPal): its 502 (refused), 503 and 504 (not answering) are said in the
   * form too, since the person can try again; nothing was changed.
   */
  providerErrors?: true;
}

/** Any field error names a field; a refusal of the request as a whole has none ("body"). */
const FORM_LEVEL = "body";

/**
 * The server half of the one form pattern: parses the posted form with the service's zod schema (Conform), calls the
 * service, and answers the form: field errors and what was typed on a refusal, with the refusal's status (400, 403,
 * 409, 429 …), or the success text. Errors of ours (5xx) are not answered here: they reach the error boundary.
 * The answer names its form (the hidden form id), so that one page can hold several forms.
 */
export async function formAction<R, S extends z.ZodType = typeof AS_TYPED>(
  formData: FormData,
  options: FormActionOptions<S, R>,
) {
  const form = String(formData.get(FORM_ID_FIELD) ?? "").slice(0, 200);
  const submission = checkForm(formData, (options.schema ?? AS_TYPED) as S);
  const hideFields = [FORM_ID_FIELD, ...(options.hide ?? [])];
  if (submission.status !== "success") {
    const fieldErrors = firstErrors(submission.error);
    const formErrors = [options.failure ?? options.invalid].filter((m): m is string => m !== undefined);
    const message = formErrors[0] ?? Object.values(fieldErrors)[0]?.[0] ?? "Please check the form.";
    return answer(
      { form, ok: false, messages: [message], result: submission.reply({ formErrors, fieldErrors, hideFields }) },
      400,
    );
  }
  try {
    const result = await options.run(submission.value);
    const success = typeof options.success === "function" ? options.success(result) : options.success;
    return answer({
      form,
      ok: true,
      messages: success === undefined ? [] : [success].flat(),
      result: submission.reply({ resetForm: options.reset ?? false }),
      ...(options.data ? { data: options.data(result) } : {}),
    });
  } catch (error) {
    const provider = options.providerErrors && isAppError(error) && [502, 503, 504].includes(error.status);
    if (!isAppError(error) || (error.status >= 500 && !provider)) throw error;
    const fieldErrors: Record<string, string[]> = {};
    for (const e of error.errors) if (e.field !== FORM_LEVEL) fieldErrors[e.field] ??= [e.message];
    const marked = Object.keys(fieldErrors).length > 0;
    const formError = options.failure ?? (marked ? options.invalid : error.message);
    const formErrors = formError === undefined ? [] : [formError];
    return answer(
      {
        form,
        ok: false,
        messages: [formError ?? error.message],
        result: submission.reply({ formErrors, fieldErrors, hideFields }),
      },
      error.status,
    );
  }
}

/**
 * A posted form read with a service's schema as every page form is (Conform): empty fields are absent, and no
 * coercion, since our schemas take what a form posts (strings) as well as JSON, so that both doors read alike. Also
 * the preview of unsaved content (decision 074), whose messages are then a save's.
 */
export function checkForm<S extends z.ZodType>(formData: FormData, schema: S) {
  return parseWithZod(formData, { schema, disableAutoCoercion: true });
}

/** One message per field, the first the schema gave (the order of its checks). */
export function firstErrors(errors: Record<string, string[] | null> | null): Record<string, string[]> {
  const out: Record<string, string[]> = {};
  for (const [field, messages] of Object.entries(errors ?? {})) if (messages?.[0]) out[field] = [messages[0]];
  return out;
}

const answer = (body: FormAnswer, status = 200) => data(body, { status });
