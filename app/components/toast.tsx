import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";
import { AlertIcon, CheckIcon } from "./StrokeIcon";
import { newestToasts, TOAST_LIMIT, TOAST_MS, type ToastKind } from "../lib/toast-times";

export { TOAST_LIMIT, TOAST_MS, type ToastKind };
export interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
  /** Who raised it (a form's id): its next answer replaces its earlier error toasts. */
  source?: string;
}

/**
 * The list after new toasts arrive: an answer from a source removes that source's earlier error toasts (a form that
 * now succeeds no longer shows why it failed before; a new refusal is not stacked on the old one), then the newest
 * TOAST_LIMIT are kept.
 */
export function addToasts(list: readonly Toast[], incoming: readonly Toast[]): Toast[] {
  const sources = new Set(incoming.map((t) => t.source).filter((s) => s !== undefined));
  const kept = list.filter((t) => !(t.kind === "error" && t.source !== undefined && sources.has(t.source)));
  return newestToasts([...kept, ...incoming]);
}

/** Shows one toast, or several from one answer; `source` names who raised them (see addToasts). */
export type ShowToast = (kind: ToastKind, text: string | readonly string[], options?: { source?: string }) => void;

const ToastContext = createContext<ShowToast>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const show = useCallback<ShowToast>((kind, text, options) => {
    const incoming = (typeof text === "string" ? [text] : text).map((t) => ({
      id: next.current++,
      kind,
      text: t.trim(),
      source: options?.source,
    }));
    if (incoming.length === 0) return;
    setToasts((list) => addToasts(list, incoming));
    const ids = new Set(incoming.map((t) => t.id));
    setTimeout(() => setToasts((list) => list.filter((t) => !ids.has(t.id))), TOAST_MS[kind]);
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      {/*
        Never over the sticky header (4.5rem): on phones at the bottom, clear of the header and the back office's
        section links; on wider screens in the right-hand corner below the header.
      */}
      <div
        aria-live="polite"
        data-testid="toasts"
        className="pointer-events-none fixed inset-x-0 bottom-4 z-[60] flex flex-col items-center gap-2 px-4 sm:inset-x-auto sm:top-[5.25rem] sm:right-4 sm:bottom-auto sm:items-end sm:px-0"
      >
        {toasts.map((t) => (
          <ToastView key={t.id} kind={t.kind}>
            {t.text}
          </ToastView>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

/**
 * One toast as it shows. Also drawn empty into a <template> where a page's own script raises toasts without React
 * (the item generator on its plain page: app/components/generator/generator-dom.ts).
 */
export function ToastView({ kind, children }: { kind: ToastKind; children?: ReactNode }) {
  return (
    <div
      role={kind === "error" ? "alert" : "status"}
      className={`pointer-events-auto flex max-w-md animate-toast-in items-center gap-3 rounded-xl px-4 py-3 text-sm font-medium shadow-lg ring-1 ${
        kind === "error" ? "bg-red-50 text-red-800 ring-red-200" : "bg-forest text-white ring-forest/20"
      }`}
    >
      {kind === "error" ? <AlertIcon size={18} className="shrink-0" /> : <CheckIcon size={18} className="shrink-0" />}
      {children}
    </div>
  );
}

export function useToast() {
  return useContext(ToastContext);
}
