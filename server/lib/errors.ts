import type { z } from "zod";
import { NO_PERMISSION } from "#domain/refusal.ts";
import { parseWith, type FieldError } from "#domain/validation.ts";

const BRAND = Symbol.for("atelier.AppError");

/**
 * A failure a caller can act on: `status` says what happened (400 bad input with `errors` per field, 403, 404, 409,
 * 429 …). Each door maps it once: the REST API's error handler (server/http/api.ts) and, for pages, the boundary
 * around every loader and action (server/http/page-errors.ts) and the form helper (app/lib/form.server.ts).
 */
export class AppError extends Error {
  readonly [BRAND] = true;
  override readonly name = "AppError";
  constructor(
    readonly status: number,
    message: string,
    readonly errors: FieldError[] = [],
  ) {
    super(message);
  }
}

/**
 * True for an AppError from any bundle: the Express entry and React Router's server build each carry their own
 * copy of this module, so `instanceof` does not hold across them; the registered symbol does.
 */
export function isAppError(error: unknown): error is AppError {
  return typeof error === "object" && error !== null && (error as Record<symbol, unknown>)[BRAND] === true;
}

export const notFound = (what = "Not found") => new AppError(404, what);
/** A refusal: the viewer may not do this (403, the one text every door shows). */
export const forbidden = () => new AppError(403, NO_PERMISSION);
export const badRequest = (errors: FieldError[]) => new AppError(400, errors[0]?.message ?? "Invalid request", errors);
export const tooMany = (message: string) => new AppError(429, message);
export const conflict = (message: string) => new AppError(409, message);
/** One field's refusal, its message also the error's. */
export const fieldError = (status: number, field: string, message: string) =>
  new AppError(status, message, [{ field, message }]);

/** A form's values parsed by `schema` (a missing body as an empty one), or a 400 with each field's error. */
export function parsedOr400<T>(schema: z.ZodType<T>, input: unknown): T {
  const result = parseWith(schema, input ?? {});
  if (!result.ok) throw badRequest(result.errors);
  return result.data;
}

const UUID = /^[0-9a-f]{8}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{4}-[0-9a-f]{12}$/i;
/** Ids are UUIDs; anything else names no record (and never reaches SQL). */
export const isId = (value: string) => UUID.test(value);

/** The PostgreSQL error code of a failed query (drizzle wraps the driver's error in `cause`). */
export function pgErrorCode(error: unknown): string | undefined {
  const e = error as { code?: unknown; cause?: { code?: unknown } };
  const code = e?.code ?? e?.cause?.code;
  return typeof code === "string" ? code : undefined;
}

/** A unique constraint refused the write. */
export const isUniqueViolation = (error: unknown) => pgErrorCode(error) === "23505";
