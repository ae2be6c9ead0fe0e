import { pickTemplate } from "#domain/shuffle.ts";

/** One cold email as the generator shows it. */
export interface Email {
  subject: string;
  body: string;
}

export type Outcome = { ok: true; emails: Email[] } | { ok: false; message: string };

/** How many templates one generation shows (spec 1, section 9). */
export const TEMPLATES_SHOWN = 1;

/** A thrown value as a short reason for a person. */
export function reasonOf(error: unknown): string {
  if (error instanceof Error && error.message) return error.message;
  return typeof error === "string" && error ? error : "unknown error";
}

/**
 * What the generator shows for the answer of GET /api/database/{id}/templates (spec 1, section 8): refused or gone is
 * 'No active membership found'; another failure 'Failed to load email templates: {reason}'; an empty list
 * 'No active membership found.'; otherwise one template picked from a shuffled list.
 */
export function generationOutcome(
  answer: { ok: boolean; status: number; data: unknown } | { networkError: unknown },
  random: () => number = Math.random,
): Outcome {
  if ("networkError" in answer) {
    return { ok: false, message: `Failed to load email templates: ${reasonOf(answer.networkError)}` };
  }
  const body = (answer.data ?? {}) as { success?: unknown; data?: unknown; error?: unknown };
  if (answer.status === 401 || answer.status === 403 || answer.status === 404) {
    return { ok: false, message: "No active membership found" };
  }
  if (!answer.ok || body.success !== true) {
    const reason = typeof body.error === "string" && body.error ? body.error : `the server answered ${answer.status}`;
    return { ok: false, message: `Failed to load email templates: ${reason}` };
  }
  const list = Array.isArray(body.data) ? body.data.filter(isEmail) : [];
  if (list.length === 0) return { ok: false, message: "No active membership found." };
  const picked = pickTemplate(list, random)!;
  return { ok: true, emails: [picked].slice(0, TEMPLATES_SHOWN) };
}

function isEmail(value: unknown): value is Email {
  const v = value as Email;
  return typeof v === "object" && v !== null && typeof v.subject === "string" && typeof v.body === "string";
}
