import { Link } from "react-router";

type Trail = readonly { label: string; to: string }[];

/** Home, the pages `trail` names, then the page itself when `current` names it (the blog's article leaves it out). */
export function Breadcrumb({ trail, current }: { trail: Trail; current?: string }) {
  return (
    <nav aria-label="Breadcrumb" className="text-sm text-mist">
      <ol className="flex flex-wrap gap-2">
        <li>
          <Link to="/" className="hover:text-clay">
            Home
          </Link>
        </li>
        {trail.map((t) => [
          <li key={`${t.to}/`} aria-hidden="true">
            /
          </li>,
          <li key={t.to}>
            <Link to={t.to} className="hover:text-clay">
              {t.label}
            </Link>
          </li>,
        ])}
        {current === undefined ? null : (
          <>
            <li aria-hidden="true">/</li>
            <li aria-current="page" className="text-forest">
              {current}
            </li>
          </>
        )}
      </ol>
    </nav>
  );
}

/** The title band of an inner page, with its breadcrumb (Home, the pages `trail` names, then this one). */
export function PageHeader({ title, lead, trail = [] }: { title: string; lead?: string; trail?: Trail }) {
  return (
    <section className="bg-sand">
      <div className="container-page py-14 sm:py-20">
        <Breadcrumb trail={trail} current={title} />
        <h1 className="mt-4 text-4xl text-forest sm:text-5xl">{title}</h1>
        {lead ? <p className="section-lead max-w-2xl">{lead}</p> : null}
      </div>
    </section>
  );
}
