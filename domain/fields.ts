/**
 * The zod field helpers every form and service uses: required text with a length, email, safe link, http(s) link and
 * a choice from a vocabulary. Each message names the field ('Subject is required'); a field with the spec's own
 * wording passes it in.
 */
import { z } from "zod";
import { sentence } from "./vocabulary";

/** Longest accepted values: generous for real copy, small enough that nobody stores a novel by mistake. */
export const MAX_TEXT = 300;
export const MAX_LONG_TEXT = 5000;
export const MAX_LINK = 2000;
export const MAX_EMAIL = 254;

/** http(s) addresses, site-relative paths and in-page anchors only: no javascript:, data: or protocol-relative link. */
export function isSafeLink(value: string): boolean {
  if (value.startsWith("/")) return !value.startsWith("//") && !value.startsWith("/\\");
  if (value.startsWith("#")) return true;
  return isHttpUrl(value);
}

/** An absolute http(s) address with a host. */
export function isHttpUrl(value: string): boolean {
  try {
    const url = new URL(value);
    return (url.protocol === "https:" || url.protocol === "http:") && url.hostname !== "";
  } catch {
    return false;
  }
}

const EMAIL = /^[^\s@]+@[^\s@]+\.[^\s@]{2,}$/;
export function isEmail(value: string): boolean {
  return value.length <= MAX_EMAIL && EMAIL.test(value);
}

/** A trimmed text of at most `max` characters, possibly empty; absent is `required`, not text is '… must be text'. */
export function text(label: string, max: number, required = `${label} is required`) {
  return z
    .string({
      error: (issue) => (issue.input === undefined || issue.input === null ? required : `${label} must be text`),
    })
    .trim()
    .max(max, { error: `${label} must be at most ${max} characters` });
}

/** A trimmed, non-empty text of at most `max` characters. */
export function requiredText(label: string, max: number, required = `${label} is required`) {
  return text(label, max, required).min(1, { error: required, abort: true });
}

/** A required email address, trimmed (lower-case it with `.toLowerCase()` where the address is an identity). */
export function emailAddress(
  label: string,
  { required = `${label} is required`, invalid = `${label} must be a valid email address` } = {},
) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .refine(isEmail, { error: invalid });
}

/** A link a page may render: an http(s) address or a site path; empty passes (chain `.min(1)` to require one). */
export function safeLink(label: string, max = MAX_LINK) {
  return text(label, max).refine((v) => v === "" || isSafeLink(v), {
    error: `${label} must be an http(s) address or a path starting with /`,
  });
}

/** A required absolute http(s) address (links that leave the site: Canva, image hosts). */
export function httpLink(label: string, max = MAX_LINK) {
  return requiredText(label, max).refine(isHttpUrl, {
    error: `${label} must be an http(s) address, such as https://…`,
  });
}

/** One value of a closed list: absent or blank is `required`, anything else outside it names the choices. */
export function choice<const V extends string>(
  values: readonly [V, ...V[]],
  { invalid = `Choose ${sentence(values)}`, required = invalid }: { invalid?: string; required?: string } = {},
) {
  return z
    .string({ error: required })
    .trim()
    .min(1, { error: required, abort: true })
    .pipe(z.enum(values, { error: invalid }));
}
