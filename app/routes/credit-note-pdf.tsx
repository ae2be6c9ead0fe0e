import type { Route } from "./+types/credit-note-pdf";
import { pdfDownload } from "../lib/documents.server";
import { requireUser } from "../lib/guards.server";

/**
 * The credit note as a PDF (decision 073): the same data as /credit-note/{number}, for the same people, streamed as it
 * is written, saved under its number.
 */
export async function loader({ request, context, params }: Route.LoaderArgs) {
  const viewer = await requireUser(request, context);
  const { creditNotes } = context.services;
  const note = await creditNotes.get(viewer, params.number);
  const pdf = await creditNotes.pdf(note);
  return pdfDownload(pdf, creditNotes.fileName(note));
}
