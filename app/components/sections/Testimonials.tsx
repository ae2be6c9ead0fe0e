import type { SectionProps } from "./props";
import { Section } from "./Section";
import { ContentImage } from "../media/ContentImage";

export function Testimonials({ heading, records: items }: SectionProps<"testimonial">) {
  if (items.length === 0) return null;
  return (
    <Section id="testi-sec" eyebrow="Testimonials" title={heading?.testimonialHeading} lead={heading?.testimonialText}>
      <ul className="grid gap-6 md:grid-cols-2 lg:grid-cols-3">
        {items.map((t) => (
          <li key={t._id} className="flex flex-col rounded-3xl bg-sand p-8">
            <svg className="h-8 w-8 text-brass" viewBox="0 0 32 32" fill="currentColor" aria-hidden="true">
              <path d="M9 26c-3 0-5-2.4-5-6 0-6 4-11 10-13l1 2c-3.4 1.4-5.6 4-6 7 .3 0 .7-.1 1-.1 2.6 0 4.6 2 4.6 4.9S12.3 26 9 26zm15 0c-3 0-5-2.4-5-6 0-6 4-11 10-13l1 2c-3.4 1.4-5.6 4-6 7 .3 0 .7-.1 1-.1 2.6 0 4.6 2 4.6 4.9S27.3 26 24 26z" />
            </svg>
            <blockquote className="mt-5 flex-1 text-base leading-relaxed text-ink/85">{t.desc}</blockquote>
            <div className="mt-7 flex items-center gap-4">
              <ContentImage
                src={t.image}
                sizes="56px"
                width={160}
                height={160}
                className="h-14 w-14 rounded-full object-cover ring-2 ring-white"
              />
              <div>
                <p className="font-semibold text-forest">{t.personName}</p>
                <p className="text-sm text-mist">{t.personTitle}</p>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}
