import { ActionForm, useActionForm } from "../ActionForm";
import type { MessageRecord } from "#server/services/inbox.ts";

/** The forms' ids: `archive:{id}` and `archive-undo:{id}`, so that a row brought back does not repeat the answer. */
export const ARCHIVE_FORM_PREFIX = "archive";

/**
 * Archive a message (or, archived, "Move to inbox"), posted to the messages screen's action from wherever it shows
 * (the messages' rows, one message's page). Without JavaScript the answer comes with the messages screen.
 */
export function ArchiveButton({ message, className }: { message: MessageRecord; className?: string }) {
  const archived = message.archivedAt !== null;
  const form = useActionForm({
    id: `${ARCHIVE_FORM_PREFIX}${archived ? "-undo" : ""}:${message._id}`,
    action: "/all-messages",
  });
  return (
    <ActionForm
      handle={form}
      intent={archived ? "unarchive" : "archive"}
      hidden={{ id: message._id }}
      className={className}
    >
      <button
        type="submit"
        disabled={form.busy}
        className="text-sm font-semibold text-clay hover:underline disabled:opacity-60"
        aria-label={`${archived ? "Move to inbox" : "Archive"}: ${message.subject}`}
      >
        {archived ? "Move to inbox" : "Archive"}
      </button>
    </ActionForm>
  );
}
