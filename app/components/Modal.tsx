import { StrokeIcon } from "./StrokeIcon";
import { useEffect, useId, useLayoutEffect, useRef, useState, type ReactNode } from "react";

/**
 * A native <dialog> shown as a modal while `open` is true. The browser handles focus and Escape; a click on the
 * dialog element itself (not on its content) is a click on the backdrop, and closes it too. A dialog the server
 * rendered open (see Modal) becomes a modal one once the page runs. The button that opens one without JavaScript too
 * is app/components/admin/OpenDialogButton.tsx.
 */
export function useModalDialog(open: boolean) {
  const ref = useRef<HTMLDialogElement>(null);
  // Before the browser paints: a dialog first drawn open (one loaded when it is opened) never shows in place first.
  useLayoutEffect(() => {
    const dialog = ref.current;
    if (!dialog) return;
    if (open && !dialog.matches(":modal")) {
      if (dialog.open) dialog.close(); // its close event comes later, when the dialog is open again: ignored
      dialog.showModal();
    }
    if (!open && dialog.open) dialog.close();
  }, [open]);
  useEffect(() => {
    const dialog = ref.current;
    const onBackdrop = (e: MouseEvent) => {
      if (e.target === dialog) dialog?.close();
    };
    dialog?.addEventListener("click", onBackdrop);
    return () => dialog?.removeEventListener("click", onBackdrop);
  }, []);
  return ref;
}

/**
 * A native modal dialog, at most 600 px wide: it closes on its close button, Escape, or a click outside it (the
 * backdrop). `open` drives it; `onClose` is told whenever it closes.
 */
export function Modal({
  open,
  onClose,
  title,
  subtitle,
  children,
  testId,
}: {
  open: boolean;
  onClose: () => void;
  title: string;
  subtitle?: string;
  children: ReactNode;
  testId?: string;
}) {
  const ref = useModalDialog(open);
  const titleId = useId();
  // Open from the start (a URL that names what to edit): open in the HTML too, so that it shows without JavaScript.
  const [openInHtml] = useState(open);
  return (
    <dialog
      ref={ref}
      open={openInHtml || undefined}
      aria-labelledby={titleId}
      data-testid={testId}
      onClose={(e) => {
        if (!e.currentTarget.open) onClose();
      }}
      className="m-auto max-h-[calc(100dvh-2rem)] w-[calc(100%-2rem)] max-w-[600px] overflow-visible bg-transparent p-0 open:animate-page-in"
    >
      <div className="max-h-[calc(100dvh-2rem)] overflow-y-auto rounded-3xl bg-white p-6 shadow-2xl sm:p-8">
        <div className="flex items-start justify-between gap-4">
          <div>
            <h2 id={titleId} className="text-2xl text-forest">
              {title}
            </h2>
            {subtitle ? <p className="mt-1 text-sm text-mist">{subtitle}</p> : null}
          </div>
          <CloseButton onClick={onClose} />
        </div>
        <div className="mt-6">{children}</div>
      </div>
    </dialog>
  );
}

/** The round close button of dialogs and the mobile menu. */
export function CloseButton({ onClick, label = "Close" }: { onClick: () => void; label?: string }) {
  return (
    <button
      type="button"
      onClick={onClick}
      // What a page's own script (not React) closes its dialog on: the item generator's editor (generator-dom.ts).
      data-action="close"
      aria-label={label}
      className="inline-flex h-10 w-10 shrink-0 items-center justify-center rounded-full text-forest ring-1 ring-linen hover:bg-sand"
    >
      <StrokeIcon size={18}>
        <path d="M6 6l12 12M18 6L6 18" />
      </StrokeIcon>
    </button>
  );
}
