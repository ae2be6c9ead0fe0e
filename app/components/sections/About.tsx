import type { SectionProps } from "./props";
import { ServiceAbout } from "./ServiceAbout";
import { SmartLink } from "./SmartLink";
import { ContentImage } from "../media/ContentImage";

/** Alternating image and text blocks, every second one reversed; or the service page's first block with skill bars. */
export function About({ records: items, layout = "alternating" }: SectionProps<"about">) {
  if (layout === "skills") return <ServiceAbout about={items[0]} />;
  if (items.length === 0) return null;
  return (
    <section id="who-sec" className="bg-white py-20 sm:py-24">
      <div className="container-page space-y-20 sm:space-y-28">
        {items.map((about, i) => (
          <article
            key={about._id}
            data-testid="about-block"
            data-reversed={i % 2 === 1 ? "true" : "false"}
            className={`grid items-center gap-10 lg:gap-16 ${i % 2 === 1 ? "lg:grid-cols-[1fr_1.05fr]" : "lg:grid-cols-[1.05fr_1fr]"}`}
          >
            <div className={i % 2 === 1 ? "lg:order-2" : ""}>
              <ContentImage
                src={about.aboutImg}
                sizes="(min-width: 1152px) 560px, (min-width: 1024px) 48vw, 92vw"
                width={800}
                height={600}
                className="aspect-[4/3] w-full rounded-3xl object-cover shadow-lg"
              />
            </div>
            <div className={i % 2 === 1 ? "lg:order-1" : ""}>
              <p className="eyebrow">{about.aboutText}</p>
              <h2 className="section-title">{about.aboutHeading}</h2>
              <ul className="mt-8 space-y-6">
                {(
                  [
                    [about.aboutPointOne, about.aboutPointOneDetails],
                    [about.aboutPointTwo, about.aboutPointTwoDetails],
                    [about.aboutPointThree, about.aboutPointThreeDetails],
                  ] as const
                ).map(([point, details], n) => (
                  <li key={n} className="flex gap-4">
                    <span className="mt-0.5 inline-flex h-8 w-8 shrink-0 items-center justify-center rounded-full bg-clay/10 text-sm font-semibold text-clay">
                      {n + 1}
                    </span>
                    <div>
                      <h3 className="font-sans text-base font-semibold text-ink">{point}</h3>
                      <p className="mt-1 text-sm leading-relaxed text-mist">{details}</p>
                    </div>
                  </li>
                ))}
              </ul>
              <SmartLink href={about.buttonLink} className="btn-dark mt-9">
                {about.buttonText}
              </SmartLink>
            </div>
          </article>
        ))}
      </div>
    </section>
  );
}
