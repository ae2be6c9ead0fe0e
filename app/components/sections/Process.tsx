import type { SectionProps } from "./props";
import { Section } from "./Section";
import { ContentImage } from "../media/ContentImage";

/** The work section: steps 01 to 04, each with its icon. */
export function WorkSteps({ records: steps }: SectionProps<"workStep">) {
  if (steps.length === 0) return null;
  return (
    <Section tone="sand" eyebrow="How we work" title="From first visit to finished room">
      <ol className="grid gap-6 sm:grid-cols-2 lg:grid-cols-4">
        {steps.slice(0, 4).map((s) => (
          <li key={s._id} className="relative rounded-3xl bg-white p-7 ring-1 ring-linen">
            <span className="font-serif text-5xl text-brass-dark">{s.stepNumber}</span>
            <ContentImage
              src={s.stapIcon}
              sizes="40px"
              width={64}
              height={64}
              className="absolute top-7 right-7 h-10 w-10"
            />
            <h3 className="mt-4 text-xl text-forest">{s.stepTitle}</h3>
            <p className="mt-2 text-sm leading-relaxed text-mist">{s.stepDetails}</p>
          </li>
        ))}
      </ol>
    </Section>
  );
}

/** Steps, shown as a numbered timeline. */
export function Steps({ records: steps }: SectionProps<"step">) {
  if (steps.length === 0) return null;
  return (
    <Section eyebrow="Our process" title="What happens after you sign up">
      <ol className="mx-auto grid max-w-4xl gap-5 md:grid-cols-2">
        {steps.map((s) => (
          <li key={s._id} className="flex gap-5 rounded-2xl border border-linen p-6">
            <span className="inline-flex h-12 w-12 shrink-0 items-center justify-center rounded-full bg-forest font-serif text-lg text-white">
              {s.stepNumber}
            </span>
            <div>
              <h3 className="text-lg text-forest">{s.stepTitle}</h3>
              <p className="mt-1.5 text-sm leading-relaxed text-mist">{s.stepDetails}</p>
            </div>
          </li>
        ))}
      </ol>
    </Section>
  );
}
