import type { SectionProps } from "./props";
import { ContentImage } from "../media/ContentImage";

export function ContactBlocks({ records: blocks }: SectionProps<"contactBlock">) {
  if (blocks.length === 0) return null;
  return (
    <section aria-label="Ways to reach us" className="bg-white py-16">
      <ul className="container-page grid gap-6 md:grid-cols-3">
        {blocks.map((b) => (
          <li key={b._id} className="flex gap-5 rounded-2xl border border-linen p-6">
            <ContentImage src={b.contactImg} sizes="48px" width={64} height={64} className="h-12 w-12 shrink-0" />
            <div>
              <h2 className="font-serif text-lg text-forest">{b.contactTitle}</h2>
              <p className="mt-1 text-sm leading-relaxed whitespace-pre-line text-mist">{b.contactDetails}</p>
            </div>
          </li>
        ))}
      </ul>
    </section>
  );
}
