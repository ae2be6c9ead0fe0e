import type { ReactNode } from "react";

/**
 * The button that opens a dialog: with JavaScript it calls `onOpen`; without, it is a GET form that puts
 * `name=value` in the address, from which the page renders the dialog open (app/components/Modal.tsx).
 */
export function OpenDialogButton({
  name,
  value,
  onOpen,
  className,
  disabled,
  title,
  label,
  children,
}: {
  name: string;
  value: string;
  onOpen: () => void;
  className?: string;
  disabled?: boolean;
  title?: string;
  label?: string;
  children: ReactNode;
}) {
  return (
    <form
      method="get"
      className="contents"
      onSubmit={(e) => {
        e.preventDefault();
        onOpen();
      }}
    >
      <button
        type="submit"
        name={name}
        value={value}
        className={className}
        disabled={disabled}
        title={title}
        aria-label={label}
      >
        {children}
      </button>
    </form>
  );
}
