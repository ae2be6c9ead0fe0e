import { PREVIEW_PATH, PREVIEW_TARGET } from "#app/content/preview-address.ts";

/**
 * The one Preview button of every content form (decision 074): it sends what the enclosing form holds now (its intent,
 * section, record and fields, as a save would) to the staff-only preview page, which opens in a tab of its own and
 * draws the public page with the change, saving nothing. Its form posts through a fetcher, which would answer in this
 * page; the click posts a plain copy of the form instead, so the browser opens the answer in the preview's tab. Without
 * JavaScript the button's own form attributes do the same.
 */
export function PreviewButton({
  label = "Preview",
  className = "btn-outline",
}: {
  label?: string;
  className?: string;
}) {
  return (
    <button
      type="submit"
      formAction={PREVIEW_PATH}
      formMethod="post"
      formTarget={PREVIEW_TARGET}
      formNoValidate
      className={className}
      data-testid="preview-button"
      onClick={(event) => {
        const form = event.currentTarget.form;
        if (!form) return;
        event.preventDefault();
        postCopy(form);
      }}
    >
      {label}
      <span className="sr-only"> (opens in a new tab)</span>
    </button>
  );
}

/** Posts the form's current values to the preview, in its tab, with a plain form that no script intercepts. */
function postCopy(form: HTMLFormElement) {
  const copy = document.createElement("form");
  copy.method = "post";
  copy.action = PREVIEW_PATH;
  copy.target = PREVIEW_TARGET;
  copy.hidden = true;
  for (const [name, value] of new FormData(form)) {
    if (typeof value !== "string") continue;
    const input = document.createElement("input");
    input.type = "hidden";
    input.name = name;
    input.value = value;
    copy.append(input);
  }
  document.body.append(copy);
  copy.submit();
  copy.remove();
}
