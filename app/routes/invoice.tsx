import { Link } from "react-router";
import type { Route } from "./+types/invoice";
import { invoiceLayout } from "#domain/invoice.ts";
import { InvoiceArticle } from "../components/InvoiceArticle";
import { documentBack } from "../lib/documents.server";
import { requireUser } from "../lib/guards.server";

/**
 * A printable invoice (decision 038) for its customer and for staff who see orders; any other order number, an unpaid
 * order and a gift are "not found". The same text as the PDF (domain/invoice.ts).
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const invoice = await context.services.invoices.get(viewer, params.orderNumber);
  return {
    layout: invoiceLayout(invoice, context.config.timeZone),
    orderNumber: invoice.orderNumber,
    invoiceNumber: invoice.invoiceNumber,
    back: documentBack(viewer, invoice.orderId),
  };
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Invoice ${data.invoiceNumber}` : "Invoice" },
  { name: "robots", content: "noindex" },
];

export default function InvoicePage({ loaderData: { layout, orderNumber, back } }: Route.ComponentProps) {
  return (
    <section className="bg-sand/60 print:bg-white">
      <div className="container-page max-w-4xl py-10 sm:py-14 print:max-w-none print:p-0">
        <div className="mb-6 flex flex-wrap items-center justify-between gap-3 print:hidden">
          <Link to={back.to} className="text-sm text-mist hover:text-clay">
            ← {back.label}
          </Link>
          <div className="flex flex-wrap gap-2">
            <a
              href={`/invoice/${orderNumber}.pdf`}
              className="btn-primary px-5 py-2 text-sm"
              data-testid="invoice-pdf"
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
