import { useState } from "react";
import type { Email } from "../../lib/generator";
import { Modal } from "../Modal";

/**
 * 'Email Template': read-only until 'Edit Template' is pressed; 'Save Changes' replaces the text on screen only
 * (nothing is sent to the server) and closes.
 */
export function TemplateEditor({
  email,
  onClose,
  onSave,
}: {
  email: Email | null;
  onClose: () => void;
  onSave: (email: Email) => void;
}) {
  const [editable, setEditable] = useState(false);
  const [draft, setDraft] = useState<Email>({ subject: "", body: "" });
  const [shown, setShown] = useState<Email | null>(null);
  if (email !== shown) {
    setShown(email);
    setEditable(false);
    if (email) setDraft(email);
  }
  return (
    <Modal
      open={email !== null}
      onClose={onClose}
      title="Email Template"
      subtitle="Viewing Cold Email Template"
      testId="template-modal"
    >
      <div className="grid gap-5">
        <div>
          <label htmlFor="tpl-subject" className="field-label">
            Subject
          </label>
          <input
            id="tpl-subject"
            className="field-input read-only:bg-sand/50"
            value={draft.subject}
            readOnly={!editable}
            onChange={(e) => setDraft({ ...draft, subject: e.target.value })}
          />
        </div>
        <div>
          <label htmlFor="tpl-body" className="field-label">
            Email Body
          </label>
          <textarea
            id="tpl-body"
            rows={8}
            className="field-input leading-relaxed read-only:bg-sand/50"
            value={draft.body}
            readOnly={!editable}
            onChange={(e) => setDraft({ ...draft, body: e.target.value })}
          />
        </div>
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className="btn-outline" onClick={onClose}>
            Close
          </button>
          {editable ? (
            <button key="save" type="button" className="btn-primary" onClick={() => onSave(draft)}>
              Save Changes
            </button>
          ) : (
            <button key="edit" type="button" className="btn-dark" onClick={() => setEditable(true)}>
              Edit Template
            </button>
          )}
        </div>
      </div>
    </Modal>
  );
}
