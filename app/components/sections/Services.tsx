import type { SectionProps } from "./props";
import { Section } from "./Section";
import { ContentImage } from "../media/ContentImage";

/**
 * Service heading and items. The landing page shows icon, title and details; the service page (`detailed`) also
 * shows each item's name as its category and its image when it has one (spec 1: it "also reads serviceImg,
 * serviceName").
 */
export function Services({ heading, records: items, detailed = false }: SectionProps<"serviceItem">) {
  if (!heading && items.length === 0) return null;
  return (
    <Section id="service-sec" eyebrow="What we do" title={heading?.serviceHeading} lead={heading?.servicesubHeading}>
      <ul className="grid gap-6 sm:grid-cols-2 lg:grid-cols-3">
        {items.map((item) => (
          <li
            key={item._id}
            className="group rounded-2xl border border-linen bg-white p-7 transition-shadow hover:shadow-lg hover:shadow-linen/60"
          >
            {detailed && item.serviceImg ? (
              <ContentImage
                src={item.serviceImg}
                sizes="(min-width: 1152px) 360px, (min-width: 1024px) 30vw, (min-width: 640px) 45vw, 92vw"
                width={640}
                height={400}
                className="-mx-7 -mt-7 mb-2 aspect-[16/10] w-[calc(100%+3.5rem)] max-w-none rounded-t-2xl object-cover"
                testId="service-image"
              />
            ) : (
              <span className="inline-flex h-14 w-14 items-center justify-center rounded-xl bg-sand transition-colors group-hover:bg-linen">
                <ContentImage src={item.serviceIcon} sizes="36px" width={64} height={64} className="h-9 w-9" />
              </span>
            )}
            {detailed && item.serviceName ? (
              <p className="mt-5 text-xs font-semibold tracking-wide text-clay" data-testid="service-name">
                {item.serviceName}
              </p>
            ) : null}
            <h3 className={`${detailed && item.serviceName ? "mt-1" : "mt-5"} text-xl text-forest`}>
              {item.serviceTitle}
            </h3>
            <p className="mt-3 text-sm leading-relaxed text-mist">{item.serviceDetails}</p>
          </li>
        ))}
      </ul>
    </Section>
  );
}
