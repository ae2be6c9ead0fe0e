import type { SectionRecord } from "#domain/registry.ts";
import { SkillBars } from "./SkillBars";
import { ContentImage } from "../media/ContentImage";

/** Skill bars of the service page's about block: fixed at 85, 65 and 79 percent (spec 1, section 9). */
export const SERVICE_SKILLS = [85, 65, 79] as const;

export function ServiceAbout({ about }: { about?: SectionRecord<"about"> }) {
  if (!about) return null;
  const labels = [about.aboutPointOne, about.aboutPointTwo, about.aboutPointThree];
  return (
    <section className="bg-white py-20 sm:py-24">
      <div className="container-page grid items-center gap-12 lg:grid-cols-2 lg:gap-16">
        <ContentImage
          src={about.aboutImg}
          sizes="(min-width: 1152px) 540px, (min-width: 1024px) 46vw, 92vw"
          width={800}
          height={600}
          className="aspect-[4/3] w-full rounded-3xl object-cover shadow-lg"
        />
        <div>
          <p className="eyebrow">{about.aboutText}</p>
          <h2 className="section-title">{about.aboutHeading}</h2>
          <p className="section-lead">{about.aboutPointOneDetails}</p>
          <div className="mt-9">
            <SkillBars skills={labels.map((label, i) => ({ label, percent: SERVICE_SKILLS[i]! }))} />
          </div>
        </div>
      </div>
    </section>
  );
}
