import type { SectionRecord } from "../../content/registry";
import { SmartLink } from "./SmartLink";

/** Alternating image and text blocks, every second one reversed. */
export function About({ items, id }: { items: SectionRecord<"about">[]; id?: string }) {
  if (items.length === 0) return null;
  return (
    <section id={id} className="bg-white py-20 sm:py-24">
      <div className="container-page space-y-20 sm:space-y-28">
        {items.map((about, i) => (
          <article
            key={about._id}
            data-testid="about-block"
            data-reversed={i % 2 === 1 ? "true" : "false"}
            className={`grid items-center gap-10 lg:gap-16 ${i % 2 === 1 ? "lg:grid-cols-[1fr_1.05fr]" : "lg:grid-cols-[1.05fr_1fr]"}`}
          >
            <div className={i % 2 === 1 ? "lg:order-2" : ""}>
              <img
                src={about.aboutImg}
                alt=""
                width={800}
                height={600}
                loading="lazy"
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
