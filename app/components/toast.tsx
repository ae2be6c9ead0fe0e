import { createContext, useCallback, useContext, useMemo, useRef, useState, type ReactNode } from "react";

export type ToastKind = "success" | "error";
interface Toast {
  id: number;
  kind: ToastKind;
  text: string;
}

/** At most 20 toasts at once; errors stay 4 s, successes 2 s (spec 2, section 9). */
export const TOAST_LIMIT = 20;
export const TOAST_MS: Record<ToastKind, number> = { success: 2000, error: 4000 };

const ToastContext = createContext<(kind: ToastKind, text: string) => void>(() => {});

export function ToastProvider({ children }: { children: ReactNode }) {
  const [toasts, setToasts] = useState<Toast[]>([]);
  const next = useRef(1);
  const show = useCallback((kind: ToastKind, text: string) => {
    const id = next.current++;
    setToasts((list) => [...list, { id, kind, text: text.trim() }].slice(-TOAST_LIMIT));
    setTimeout(() => setToasts((list) => list.filter((t) => t.id !== id)), TOAST_MS[kind]);
  }, []);
  const value = useMemo(() => show, [show]);
  return (
    <ToastContext.Provider value={value}>
      {children}
      <div
        aria-live="polite"
        className="pointer-events-none fixed inset-x-0 top-4 z-[60] flex flex-col items-center gap-2 px-4"
      >
        {toasts.map((t) => (
          <div
            key={t.id}
            role={t.kind === "error" ? "alert" : "status"}
            className={`pointer-events-auto flex max-w-md animate-toast-in items-center gap-3 rounded-xl px-4 py-3 text-sm font-medium shadow-lg ring-1 ${
              t.kind === "error" ? "bg-red-50 text-red-800 ring-red-200" : "bg-forest text-white ring-forest/20"
            }`}
          >
            <span aria-hidden="true">{t.kind === "error" ? "!" : "✓"}</span>
            {t.text}
          </div>
        ))}
      </div>
    </ToastContext.Provider>
  );
}

export function useToast() {
  return useContext(ToastContext);
}
