/**
 * How long toasts stay and how many show at once, apart from the toast component (app/components/toast.tsx), so that
 * a page's own small script (the item generator's) can keep the same times without bringing React with it.
 */
export type ToastKind = "success" | "error";

/** At most 20 toasts at once; errors stay 4 s, successes 2 s (spec 2, section 9). */
export const TOAST_LIMIT = 20;
/** The toasts that stay when more arrive, oldest first: the newest TOAST_LIMIT. Both toast regions keep to it. */
export const newestToasts = <T>(toasts: readonly T[]): T[] => toasts.slice(-TOAST_LIMIT);
export const TOAST_MS: Record<ToastKind, number> = { success: 2000, error: 4000 };
