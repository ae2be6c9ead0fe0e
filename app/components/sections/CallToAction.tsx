import type { SectionProps } from "./props";
import { SmartLink } from "./SmartLink";

/** The call to action: heading, subheading, 'Get Every Single Needs' and the 'Let's Talk For Support' button to /. */
export function CallToAction({ record: action }: SectionProps<"action">) {
  if (!action) return null;
  return (
    <section className="bg-white py-16 sm:py-20">
      <div className="container-page">
        <div className="relative overflow-hidden rounded-[2rem] bg-forest px-8 py-14 text-center sm:px-16">
          <div
            className="absolute -top-20 -left-20 h-64 w-64 rounded-full bg-forest-light blur-2xl"
            aria-hidden="true"
          />
          <div
            className="absolute -right-16 -bottom-24 h-72 w-72 rounded-full bg-clay/30 blur-3xl"
            aria-hidden="true"
          />
          <div className="relative mx-auto max-w-2xl">
            <p className="eyebrow text-brass">Get Every Single Needs</p>
            <h2 className="mt-4 text-3xl text-white sm:text-4xl">{action.heading}</h2>
            <p className="mt-4 text-base leading-relaxed text-white/75 sm:text-lg">{action.subHeading}</p>
            <SmartLink href={action.buttonLink || "/"} className="btn-primary mt-9 px-8 py-3.5">
              {action.buttonText || "Let's Talk For Support"}
            </SmartLink>
          </div>
        </div>
      </div>
    </section>
  );
}
