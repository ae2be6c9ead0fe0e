import type { SectionProps } from "./props";
import { Section } from "./Section";

export function Faq({ heading, records: items }: SectionProps<"faqItem">) {
  if (items.length === 0) return null;
  return (
    <Section id="faq-sec" eyebrow="FAQ" title={heading?.faqHeading} lead={heading?.faqText}>
      <div className="mx-auto max-w-3xl divide-y divide-linen rounded-3xl border border-linen bg-white">
        {items.map((item, i) => (
          <details key={item._id} className="group px-6 py-5 sm:px-8" open={i === 0}>
            <summary className="flex cursor-pointer list-none items-center justify-between gap-6 font-semibold text-forest [&::-webkit-details-marker]:hidden">
              {item.accodingTitle}
              <span
                className="inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-sand text-clay transition-transform group-open:rotate-45"
                aria-hidden="true"
              >
                +
              </span>
            </summary>
            <p className="mt-3 text-sm leading-relaxed text-mist">{item.accodingText}</p>
          </details>
        ))}
      </div>
    </Section>
  );
}
