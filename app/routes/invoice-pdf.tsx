import { Readable } from "node:stream";
import type { Route } from "./+types/invoice-pdf";
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
  return new Response(Readable.toWeb(pdf) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${invoices.fileName(invoice)}"`,
      // A person's document: never kept by a shared cache.
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}
