import type { ReactNode } from "react";
import type { Tone } from "#domain/vocabulary.ts";

/** A small coloured label for a status (tables, records, the desk). */
export function Badge({ tone, children }: { tone: Tone; children: ReactNode }) {
  return <span className={BADGE[tone]}>{children}</span>;
}

/** Whole class names (the utilities in app.css), so that Tailwind finds each one in the source. */
const BADGE: Record<Tone, string> = {
  green: "badge-green",
  amber: "badge-amber",
  red: "badge-red",
  grey: "badge-grey",
  blue: "badge-blue",
};
