import { Link } from "react-router";
import type { Route } from "./+types/credit-note";
import { creditNoteLayout } from "#domain/credit-note.ts";
import { InvoiceArticle } from "../components/InvoiceArticle";
import { documentBack } from "../lib/documents.server";
import { requireUser } from "../lib/guards.server";

/**
 * A printable credit note (decision 073) for its customer and for staff who see orders, beside the invoice it corrects;
 * anyone else's, and a text that is no credit note number, are "not found". The same text as the PDF.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const note = await context.services.creditNotes.get(viewer, params.number);
  return {
    layout: creditNoteLayout(note, context.config.timeZone),
    number: note.creditNoteNumber,
    orderNumber: note.orderNumber,
    back: documentBack(viewer, note.orderId),
  };
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Credit note ${data.number}` : "Credit note" },
  { name: "robots", content: "noindex" },
];

export default function CreditNotePage({ loaderData: { layout, number, orderNumber, back } }: Route.ComponentProps) {
  return (
    <section className="bg-sand/60 print:bg-white">
      <div className="container-page max-w-4xl py-10 sm:py-14 print:max-w-none print:p-0">
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
          <Link to={back.to} className="text-sm text-mist hover:text-clay">
            ← {back.label}
          </Link>
          <div className="flex flex-wrap gap-2">
            <Link to={`/invoice/${orderNumber}`} className="btn-outline px-5 py-2 text-sm">
              The invoice
            </Link>
            <a
              href={`/credit-note/${number}.pdf`}
              className="btn-primary px-5 py-2 text-sm"
              data-testid="credit-note-pdf"
              download
            >
              Download PDF
            </a>
          </div>
        </div>

        <InvoiceArticle layout={layout} />
      </div>
    </section>
  );
}
