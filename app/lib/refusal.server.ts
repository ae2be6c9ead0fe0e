import { isAppError } from "#server/lib/errors.ts";

/** A service's refusal as a page sees it: its status and the sentence to show. */
export interface Refusal {
  status: number;
  message: string;
}

/**
 * A service call whose refusal of the given status (or statuses) the page answers itself, in place: `fallback` gives
 * the page's answer instead (or throws the page's own response). Every other failure goes on to the error boundary
 * (server/http/page-errors.ts), which maps the rest. Pages never test for AppError themselves.
 */
export async function whenRefused<T, U>(
  work: Promise<T>,
  status: number | ((status: number) => boolean),
  fallback: (refusal: Refusal) => U | Promise<U>,
): Promise<T | U> {
  try {
    return await work;
  } catch (error) {
    const matches = typeof status === "number" ? (s: number) => s === status : status;
    if (!isAppError(error) || !matches(error.status)) throw error;
    return fallback({ status: error.status, message: error.message });
  }
}
