import { Modal } from "../Modal";
import { gen } from "./generator-dom";

/**
 * 'Email Template': read-only until 'Edit Template' is pressed; 'Save Changes' replaces the text on screen only
 * (nothing is sent to the server) and closes. Drawn closed and empty; the generator's script (generator-dom.ts) fills
 * it, opens it as a modal dialog and closes it: it is the one <dialog> of the generator.
 */
export function TemplateEditor() {
  return (
    <Modal
      open={false}
      // Opened and closed by the generator's script, which listens to the dialog itself.
      onClose={() => {}}
      title="Email Template"
      subtitle="Viewing Cold Email Template"
      testId="template-modal"
    >
      <div className="grid gap-5">
        <div>
          <label htmlFor="tpl-subject" className="field-label">
            Subject
          </label>
          <input id="tpl-subject" className="field-input read-only:bg-sand/50" readOnly {...gen("editor-subject")} />
        </div>
        <div>
          <label htmlFor="tpl-body" className="field-label">
            Email Body
          </label>
          <textarea
            id="tpl-body"
            rows={8}
            className="field-input leading-relaxed read-only:bg-sand/50"
            readOnly
            {...gen("editor-body")}
          />
        </div>
        <div className="flex flex-wrap justify-end gap-3">
          <button type="button" className="btn-outline" data-action="close">
            Close
          </button>
          <button type="button" className="btn-dark" data-action="edit" {...gen("editor-edit")}>
            Edit Template
          </button>
          <button type="button" className="btn-primary" data-action="save" hidden {...gen("editor-save")}>
            Save Changes
          </button>
        </div>
      </div>
    </Modal>
  );
}
