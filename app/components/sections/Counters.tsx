import type { SectionProps } from "./props";

export function Counters({ record: counter }: SectionProps<"counter">) {
  if (!counter) return null;
  const items = [
    [counter.happyClientsNumber, counter.happyClientsText],
    [counter.projectCompleteNumber, counter.projectCompleteText],
    [counter.yearofExperienceNumber, counter.yearofExperienceText],
    [counter.winingAwardNumber, counter.winingAwardText],
  ];
  return (
    <section aria-label="Our numbers" className="bg-forest">
      <dl className="container-page grid grid-cols-2 gap-8 py-12 text-center lg:grid-cols-4">
        {items.map(([n, label], i) => (
          <div key={i}>
            <dt className="order-2 mt-1 text-sm text-white/70">{label}</dt>
            <dd className="font-serif text-4xl text-brass">{n}</dd>
          </div>
        ))}
      </dl>
    </section>
  );
}
