import type { SubmissionResult } from "@conform-to/react";

/** The hidden field that names the form an answer is for: one page can hold several forms posting to one action. */
export const FORM_ID_FIELD = "_form";

/**
 * What every page form's action answers (app/lib/form.server.ts): Conform's result (field errors, what was typed, or
 * a reset), whether the service accepted it, and the texts to show (toasts; in the form itself without JavaScript).
 */
export interface FormAnswer {
  form: string;
  ok: boolean;
  messages: string[];
  result: SubmissionResult<string[]>;
  /** What a success gives the page once and nowhere else (a new API key's secret, decision 077). */
  data?: Record<string, string>;
}
