import type { OptionsOf } from "#app/content/pages.ts";
import type { BlockType, HeadingOf, IsSingleton, SectionRecord } from "#domain/registry.ts";

/**
 * What a section's public component receives, typed from the registry: a singleton's record (if one exists) or a
 * list's records in display order, the list's heading record when the registry names one, and the page's options.
 */
export type SectionProps<T extends BlockType> = (IsSingleton<T> extends true
  ? { record?: SectionRecord<T> }
  : { records: SectionRecord<T>[] }) &
  ([HeadingOf<T>] extends [never] ? unknown : { heading?: SectionRecord<HeadingOf<T>> }) &
  OptionsOf<T>;
