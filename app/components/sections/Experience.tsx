import type { SectionProps } from "./props";
import { SkillBars } from "./SkillBars";

export function Experience({ record: experience }: SectionProps<"experience">) {
  if (!experience) return null;
  return (
    <section className="bg-forest py-20 sm:py-24">
      <div className="container-page grid gap-12 lg:grid-cols-2 lg:gap-16">
        <div>
          <p className="eyebrow text-brass">{experience.experienceText}</p>
          <h2 className="section-title text-white">{experience.experienceHeading}</h2>
          <p className="mt-4 text-base leading-relaxed text-white/75 sm:text-lg">{experience.experienceDetails}</p>
        </div>
        <div className="self-center">
          <SkillBars
            light
            skills={[
              { label: experience.skillOneText, percent: experience.skillOneNumber },
              { label: experience.skillTwoText, percent: experience.skillTwoNumber },
              { label: experience.skillThreeText, percent: experience.skillThreeNumber },
            ]}
          />
        </div>
      </div>
    </section>
  );
}
