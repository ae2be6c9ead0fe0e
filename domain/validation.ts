import { z } from "zod";
import { isEmail, MAX_LINK, MAX_LONG_TEXT, MAX_TEXT, safeLink, text } from "./fields";
import type { FieldDef, SectionDef } from "./registry";

function fieldSchema(field: FieldDef): z.ZodType {
  const label = field.label;
  const required = `${label} is required`;
  if (field.kind === "checkbox") {
    // A form sends "on" (or nothing); the API sends true or false.
    return z.preprocess(
      (v) =>
        v === "on" || v === "true" ? true : v === undefined || v === null || v === "" || v === "false" ? false : v,
      z.boolean({ error: `${label} must be true or false` }),
    );
  }
  if (field.kind === "number") {
    let n = z.number({ error: `${label} must be a number` });
    if (field.integer) n = n.int({ error: `${label} must be a whole number` });
    if (field.min !== undefined) n = n.min(field.min, { error: `${label} must be at least ${field.min}` });
    return z.preprocess(
      (v) => (typeof v === "string" ? (v.trim() === "" ? undefined : Number(v.trim())) : v),
      field.optional
        ? n.optional()
        : z
            .any()
            .refine((v) => v !== undefined && v !== null, { error: required })
            .pipe(n),
    );
  }
  const max = field.kind === "longText" ? MAX_LONG_TEXT : field.kind === "text" ? MAX_TEXT : MAX_LINK;
  let s =
    field.kind === "link" || field.kind === "image" || field.kind === "media" ? safeLink(label, max) : text(label, max);
  if (field.kind === "email") {
    s = s.refine((v) => v === "" || isEmail(v), { error: `${label} must be a valid email address` });
  }
  if (field.optional) {
    return z.preprocess((v) => (v === null ? undefined : v), s.optional()).transform((v) => (v ? v : undefined));
  }
  return z.preprocess((v) => (v === undefined || v === null ? "" : v), s.min(1, { error: required }));
}

const cache = new WeakMap<SectionDef, z.ZodType<Record<string, unknown>>>();

/** The schema of one section's record, built once from its registry entry; unknown keys are dropped. */
export function sectionSchema(section: SectionDef): z.ZodType<Record<string, unknown>> {
  let schema = cache.get(section);
  if (!schema) {
    const shape = Object.fromEntries(section.fields.map((f) => [f.name, fieldSchema(f)]));
    const check = section.recordCheck;
    const object = z.object(shape);
    schema = (
      check
        ? object.superRefine((o, ctx) => {
            const problem = check(o);
            if (problem) ctx.addIssue({ code: "custom", path: [problem.field], message: problem.message });
          })
        : object
    ).transform((o) => Object.fromEntries(Object.entries(o).filter(([, v]) => v !== undefined)));
    cache.set(section, schema);
  }
  return schema;
}

export interface FieldError {
  field: string;
  message: string;
}

export type ParseResult<T> = { ok: true; data: T } | { ok: false; errors: FieldError[] };

/** Runs a schema and turns its issues into one message per field, in field order. */
export function parseWith<T>(schema: z.ZodType<T>, input: unknown): ParseResult<T> {
  const result = schema.safeParse(input);
  if (result.success) return { ok: true, data: result.data };
  const seen = new Set<string>();
  const errors: FieldError[] = [];
  for (const issue of result.error.issues) {
    const field = issue.path.map(String).join(".") || "body";
    if (seen.has(field)) continue;
    seen.add(field);
    errors.push({ field, message: issue.message });
  }
  return { ok: false, errors };
}

export function validateSection(section: SectionDef, input: unknown): ParseResult<Record<string, unknown>> {
  if (typeof input !== "object" || input === null || Array.isArray(input)) {
    return { ok: false, errors: [{ field: "body", message: "The request body must be a JSON object" }] };
  }
  return parseWith(sectionSchema(section), input);
}
