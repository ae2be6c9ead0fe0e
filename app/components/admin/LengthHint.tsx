import type { LengthHint as Hint } from "#domain/page-seo.ts";

/** The hint's id, and the error's when there is one (the field's own wiring names only the error). */
export function describedBy(field: { errorId: string; errors?: string[] } | undefined, hintId: string) {
  return field?.errors?.length ? `${hintId} ${field.errorId}` : hintId;
}

const HINT_COLOUR: Record<Hint["verdict"], string> = {
  default: "text-mist",
  short: "text-ink",
  good: "text-forest",
  long: "text-clay-dark",
};

/** A search listing field's length hint (domain/page-seo.ts), read out when it changes. */
export function LengthHint({ id, hint }: { id: string; hint: Hint }) {
  return (
    <p id={id} className={`mt-2 text-sm ${HINT_COLOUR[hint.verdict]}`} aria-live="polite" data-verdict={hint.verdict}>
      {hint.text}
    </p>
  );
}
