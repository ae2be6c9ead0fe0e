import { Readable } from "node:stream";
import { can, staffRoleOf } from "#domain/capabilities.ts";
import type { Viewer } from "#server/services/accounts.ts";

/**
 * A person's document (an invoice, a credit note) as a PDF download, streamed as it is written, saved as `fileName`:
 * never kept by a shared cache.
 */
export function pdfDownload(pdf: Readable, fileName: string): Response {
  return new Response(Readable.toWeb(pdf) as ReadableStream<Uint8Array>, {
    headers: {
      "Content-Type": "application/pdf",
      "Content-Disposition": `attachment; filename="${fileName}"`,
      "Cache-Control": "private, no-store",
      "X-Content-Type-Options": "nosniff",
    },
  });
}

/** Where a document's "back" link goes: staff who see orders to the order's screen, its customer to My Orders. */
export const documentBack = (viewer: Viewer, orderId: string) =>
  can(staffRoleOf(viewer), "orders")
    ? { to: `/admin/payment-status/${orderId}`, label: "The order" }
    : { to: "/my-order", label: "My Orders" };
