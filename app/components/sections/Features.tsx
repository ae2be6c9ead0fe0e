import type { SectionProps } from "./props";
import { Section } from "./Section";
import { ContentImage } from "../media/ContentImage";

export function Features({ heading, records: items }: SectionProps<"featureItem">) {
  if (items.length === 0) return null;
  return (
    <Section eyebrow="Why clients stay" title={heading?.FeaturesHeading} lead={heading?.FeaturesText}>
      <ul className="grid gap-8 sm:grid-cols-2">
        {items.map((f) => (
          <li key={f._id} className="overflow-hidden rounded-3xl bg-white ring-1 ring-linen">
            <ContentImage
              src={f.FeaturesImg}
              sizes="(min-width: 1152px) 540px, (min-width: 640px) 45vw, 92vw"
              width={600}
              height={400}
              className="aspect-[3/2] w-full object-cover"
            />
            <div className="flex gap-4 p-7">
              <ContentImage src={f.FeaturesIcon} sizes="40px" width={64} height={64} className="h-10 w-10 shrink-0" />
              <div>
                <h3 className="text-xl text-forest">{f.FeaturesText}</h3>
                <p className="mt-2 text-sm leading-relaxed text-mist">{f.FeaturesDesc}</p>
              </div>
            </div>
          </li>
        ))}
      </ul>
    </Section>
  );
}
