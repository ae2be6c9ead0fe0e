import { Link, useLocation, useSearchParams } from "react-router";
import type { RecordView, SectionView } from "#app/content/section-view.ts";
import { ActionForm, useActionForm } from "../ActionForm";
import { DangerButton } from "../forms";
import { Modal } from "../Modal";
import { PreviewButton } from "./PreviewButton";

/**
 * A section's delete confirmation (./SectionList.tsx, Curation): a native dialog, open while `item` is set. Loaded when
 * first opened (or with the page, when its address opens it: ?delete={id}, the way without JavaScript).
 */
export default function DeleteDialog({
  formId,
  section,
  item,
  onClose,
}: {
  /** The delete form's id (its answer, come with the page, is shown by the section: Curation). */
  formId: string;
  section: SectionView;
  item: RecordView | null;
  onClose: () => void;
}) {
  return (
    <Modal
      open={item !== null}
      onClose={onClose}
      title={`Delete this ${section.title}?`}
      testId={`delete-dialog-${section.type}`}
    >
      {item ? <ConfirmDelete formId={formId} section={section} item={item} onDone={onClose} /> : null}
    </Modal>
  );
}

function ConfirmDelete({
  formId,
  section,
  item,
  onDone,
}: {
  formId: string;
  section: SectionView;
  item: RecordView;
  onDone: () => void;
}) {
  const form = useActionForm({ id: formId, onSuccess: onDone });
  const { pathname } = useLocation();
  const [searchParams] = useSearchParams();
  return (
    <ActionForm handle={form} intent="delete" hidden={{ type: section.type, id: item.record._id }}>
      <p className="text-sm text-ink">
        {item.title ? <strong>“{item.title}”</strong> : `This ${section.title}`} will be removed from the site at once.
        It stays in the{" "}
        <Link to="/trash" className="font-semibold text-clay underline underline-offset-2">
          trash
        </Link>{" "}
        for 30 days, where it can be restored.
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        {/* Without JavaScript the dialog is this page's ?delete= address: cancelling is leaving it. */}
        <Link
          to={pathname}
          replace
          preventScrollReset
          onClick={(e) => {
            // Opened from its address (?delete=): leave that address too, so a reload does not open it again.
            if (!searchParams.has("delete")) e.preventDefault();
            onDone();
          }}
          className="btn-outline px-5 py-2 text-sm"
        >
          Cancel
        </Link>
        <PreviewButton label="Preview without it" className="btn-outline px-5 py-2 text-sm" />
        <DangerButton busy={form.busy} busyLabel="Deleting…" compact>
          Delete
        </DangerButton>
      </div>
    </ActionForm>
  );
}
