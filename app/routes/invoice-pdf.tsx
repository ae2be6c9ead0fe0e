import type { Route } from "./+types/invoice-pdf";
import { pdfDownload } from "../lib/documents.server";
import { requireUser } from "../lib/guards.server";

/**
 * The invoice as a PDF (decision 038): the same data as /invoice/{orderNumber}, for the same people, streamed as it is
 * written, saved under the invoice's number.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const { invoices } = context.services;
  const invoice = await invoices.get(viewer, params.orderNumber);
  const pdf = await invoices.pdf(invoice);
  return pdfDownload(pdf, invoices.fileName(invoice));
}
