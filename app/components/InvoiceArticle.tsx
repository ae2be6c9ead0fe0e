import { Link } from "react-router";
import type { InvoiceLayout } from "#domain/invoice.ts";

/** The small capitals over a part of the invoice. */
const LABEL = "text-xs font-semibold tracking-[0.06em] text-mist uppercase";

/** The title first (the heading order, and on a phone at the top); beside the agency's details from sm up. */
function InvoiceHeader({ layout }: { layout: InvoiceLayout }) {
  return (
    <header className="flex flex-col gap-4 border-b border-linen pb-6 sm:flex-row-reverse sm:items-start sm:justify-between sm:gap-6">
      <h1 id="invoice-title" className="font-serif text-3xl text-forest sm:text-4xl">
        {layout.title}
      </h1>
      <div className="min-w-0">
        <p className="font-serif text-xl text-forest">{layout.seller.name}</p>
        <address className="mt-1 text-sm leading-relaxed text-mist not-italic">
          {layout.seller.lines.map((line) => (
            <span key={line} className="block break-words">
              {line}
            </span>
          ))}
        </address>
      </div>
    </header>
  );
}

/** What the invoice is for, its discount, its VAT lines and its total. */
function InvoiceLines({ layout }: { layout: InvoiceLayout }) {
  return (
    <table className="mt-8 w-full text-left text-sm">
      <caption className="sr-only">What this {layout.title.toLowerCase()} is for</caption>
      <thead>
        <tr className="border-b border-linen">
          <th scope="col" className={`py-2 ${LABEL}`}>
            Description
          </th>
          <th scope="col" className={`py-2 text-right ${LABEL}`}>
            Amount
          </th>
        </tr>
      </thead>
      <tbody>
        <tr className="border-b border-linen align-top">
          {/* The package's name as the studio typed it: a long word breaks rather than widen the page. */}
          <td className="py-4 pr-4 wrap-anywhere">
            <span className="block font-medium">{layout.line.description}</span>
            <span className="block text-mist">{layout.line.detail}</span>
          </td>
          <td className="py-4 text-right whitespace-nowrap">{layout.line.amount}</td>
        </tr>
        {layout.discount ? (
          <tr className="border-b border-linen align-top" data-testid="invoice-discount">
            <td className="py-4 pr-4 wrap-anywhere">{layout.discount.description}</td>
            <td className="py-4 text-right whitespace-nowrap">{layout.discount.amount}</td>
          </tr>
        ) : null}
      </tbody>
      <tfoot>
        {layout.vat.map(([name, value]) => (
          <tr key={name} data-testid="invoice-vat">
            <th scope="row" className="pt-2 pr-4 text-right font-normal text-mist">
              {name}
            </th>
            <td className="pt-2 text-right whitespace-nowrap">{value}</td>
          </tr>
        ))}
        <tr>
          <th scope="row" className="pt-4 pr-4 text-right font-semibold">
            {layout.total[0]}
          </th>
          <td className="pt-4 text-right font-serif text-xl whitespace-nowrap text-forest">{layout.total[1]}</td>
        </tr>
      </tfoot>
    </table>
  );
}

/**
 * An invoice (decision 038) or a credit note (decision 073) as the page prints it, from its one layout
 * (domain/invoice.ts, domain/credit-note.ts): the same text as its PDF. The page around it adds the way back and the
 * PDF's button.
 */
export function InvoiceArticle({ layout }: { layout: InvoiceLayout }) {
  return (
    <article
      className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-10 print:rounded-none print:p-0 print:ring-0"
      aria-labelledby="invoice-title"
      data-testid="invoice"
    >
      <InvoiceHeader layout={layout} />

      <div className="mt-6 grid gap-6 sm:grid-cols-2">
        <div className="min-w-0">
          <h2 className={LABEL}>Billed to</h2>
          <address className="mt-2 text-sm leading-relaxed not-italic">
            {layout.billedTo.map((line, i) => (
              <span key={`${i}-${line}`} className="block break-words">
                {line}
              </span>
            ))}
          </address>
        </div>
        <dl className="grid grid-cols-[auto_1fr] gap-x-4 gap-y-1 self-start text-sm sm:justify-self-end">
          {layout.facts.map(([name, value]) => (
            <div key={name} className="contents">
              <dt className="text-mist">{name}</dt>
              <dd className="min-w-0 font-medium wrap-anywhere sm:text-right">{value}</dd>
            </div>
          ))}
        </dl>
      </div>

      <InvoiceLines layout={layout} />

      {layout.notes.map((note) => (
        <p key={note} className="mt-6 text-sm font-semibold" data-testid="invoice-note">
          {note}
        </p>
      ))}

      {layout.creditNotes.length ? (
        <div className="mt-6 text-sm" data-testid="invoice-credit-notes">
          <h2 className={LABEL}>Credit notes</h2>
          <ul className="mt-2 space-y-1">
            {layout.creditNotes.map((c) => (
              <li key={c.number}>
                <Link to={`/credit-note/${c.number}`} className="underline hover:text-clay">
                  {c.text}
                </Link>
              </li>
            ))}
          </ul>
        </div>
      ) : null}

      {layout.notice ? (
        <p className="mt-6 rounded-lg bg-amber-50 px-4 py-3 text-sm font-medium text-amber-900 ring-1 ring-amber-200">
          {layout.notice}
        </p>
      ) : null}

      <footer className="mt-10 border-t border-linen pt-4 text-xs leading-relaxed text-mist">
        {layout.seller.legal.length ? <p>{layout.seller.legal.join(" · ")}</p> : null}
        <p>{layout.footer}</p>
      </footer>
    </article>
  );
}
