import type { SectionRecord } from "../../content/registry";
import { Section } from "./Section";

export function Services({
  heading,
  items,
  id,
}: {
  heading?: SectionRecord<"serviceHeading">;
  items: SectionRecord<"serviceItem">[];
  id?: string;
}) {
  if (!heading && items.length === 0) return null;
  return (
    <Section id={id} eyebrow="What we do" title={heading?.serviceHeading} lead={heading?.servicesubHeading}>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <li
            key={item._id}
            className="group rounded-2xl border border-linen bg-white p-7 transition-shadow hover:shadow-lg hover:shadow-linen/60"
          >
            <span className="inline-flex h-14 w-14 items-center justify-center rounded-xl bg-sand transition-colors group-hover:bg-linen">
              <img src={item.serviceIcon} alt="" width={64} height={64} className="h-9 w-9" loading="lazy" />
            </span>
            <h3 className="mt-5 text-xl text-forest">{item.serviceTitle}</h3>
            <p className="mt-3 text-sm leading-relaxed text-mist">{item.serviceDetails}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
