import type { ReactNode } from "react";

/** A page section with an optional eyebrow, title and lead, centred; every public section uses it. */
export function Section({
  id,
  eyebrow,
  title,
  lead,
  tone = "white",
  children,
  titleAs: Title = "h2",
}: {
  id?: string;
  eyebrow?: string;
  title?: string;
  lead?: string;
  tone?: "white" | "sand" | "forest";
  children: ReactNode;
  titleAs?: "h1" | "h2";
}) {
  const bg = tone === "sand" ? "bg-sand" : tone === "forest" ? "bg-forest text-white" : "bg-white";
  return (
    <section id={id} className={`${bg} py-20 sm:py-24`}>
      <div className="container-page">
        {title || eyebrow ? (
          <div className="mx-auto mb-12 max-w-2xl text-center sm:mb-16">
            {eyebrow ? <p className="eyebrow">{eyebrow}</p> : null}
            {title ? <Title className={`section-title ${tone === "forest" ? "text-white" : ""}`}>{title}</Title> : null}
            {lead ? <p className={`section-lead ${tone === "forest" ? "text-white/75" : ""}`}>{lead}</p> : null}
          </div>
        ) : null}
        {children}
      </div>
    </section>
  );
}
