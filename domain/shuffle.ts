/**
 * The generator's random pick, apart from the catalogue's schemas (domain/catalogue.ts re-exports it): the item page's
 * browser code needs only this, and a module that builds zod schemas would bring zod into its scripts (issue 28).
 */

/** Fisher–Yates: a shuffled copy, every order equally likely for a uniform `random` in [0, 1). */
export function shuffle<T>(list: readonly T[], random: () => number = Math.random): T[] {
  const out = [...list];
  for (let i = out.length - 1; i > 0; i--) {
    const j = Math.floor(random() * (i + 1));
    [out[i], out[j]] = [out[j]!, out[i]!];
  }
  return out;
}

/** The generator shows one template: the first of a shuffled list (undefined for an empty list). */
export function pickTemplate<T>(templates: readonly T[], random: () => number = Math.random): T | undefined {
  return shuffle(templates, random)[0];
}
