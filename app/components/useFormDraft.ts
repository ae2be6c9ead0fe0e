import { useEffect } from "react";

/**
 * What was typed in a form, kept in the tab's sessionStorage while it is typed, so that a form lost to an expired
 * session (its post goes to the login page) is filled in again when its page opens after signing in (decision 048).
 * Only the named fields are kept; a draft belongs to one person (another person signing in in the same tab never sees
 * it, and it is removed), is given back for {@link DRAFT_TTL_MS} at most, and is removed once the form was accepted
 * (clearFormDraft on the page that follows) or when the tab closes (sessionStorage). Without JavaScript nothing is kept.
 */
const PREFIX = "draft:";
/** How long a draft is given back: long enough to sign in again, short enough not to linger in a tab left open. */
export const DRAFT_TTL_MS = 2 * 60 * 60 * 1000;

interface Draft {
  savedAt: number;
  values: Record<string, string>;
}

const keyOf = (owner: string, formId: string) => `${PREFIX}${owner}:${formId}`;

function storage(): Storage | null {
  try {
    return window.sessionStorage;
  } catch {
    return null; // storage refused (privacy settings): the form simply is not kept
  }
}

function draftKeys(store: Storage): string[] {
  const keys: string[] = [];
  for (let i = 0; i < store.length; i++) {
    const key = store.key(i);
    if (key?.startsWith(PREFIX)) keys.push(key);
  }
  return keys;
}

/** Removes the draft of form `formId`, whoever it belonged to (the form was accepted). */
export function clearFormDraft(formId: string) {
  const store = storage();
  if (!store) return;
  for (const key of draftKeys(store)) if (key.endsWith(`:${formId}`)) store.removeItem(key);
}

/**
 * Keeps the fields `fields` of the form whose DOM id is `domId` for `owner` (the signed-in person's id) under
 * `formId`, and fills the empty ones in from an earlier draft when the page opens.
 */
export function useFormDraft({
  domId,
  formId,
  owner,
  fields,
  onRestored,
}: {
  domId: string;
  formId: string;
  owner: string;
  fields: readonly string[];
  /** Called once the draft is back in the form (a summary worked out from the fields reads them then). */
  onRestored?: (form: HTMLFormElement) => void;
}) {
  const names = fields.join("\n");
  useEffect(() => {
    const store = storage();
    const form = document.getElementById(domId);
    if (!store || !(form instanceof HTMLFormElement)) return;
    const key = keyOf(owner, formId);
    const kept = names.split("\n");
    // Someone else's drafts in this tab (they signed out or their session ended) are removed unread.
    for (const k of draftKeys(store)) if (!k.startsWith(`${PREFIX}${owner}:`)) store.removeItem(k);
    const draft = read(store, key);
    if (draft) {
      for (const name of kept) {
        const control = form.elements.namedItem(name);
        const value = draft.values[name];
        if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement)
          if (!control.value && typeof value === "string") control.value = value;
      }
    }
    onRestored?.(form);
    const save = () => {
      const values: Record<string, string> = {};
      for (const name of kept) {
        const control = form.elements.namedItem(name);
        if (control instanceof HTMLInputElement || control instanceof HTMLTextAreaElement)
          if (control.value) values[name] = control.value;
      }
      try {
        if (Object.keys(values).length) store.setItem(key, JSON.stringify({ savedAt: Date.now(), values }));
        else store.removeItem(key);
      } catch {
        // storage full or refused: the form simply is not kept
      }
    };
    form.addEventListener("input", save);
    return () => form.removeEventListener("input", save);
  }, [domId, formId, owner, names]);
}

function read(store: Storage, key: string): Draft | null {
  const raw = store.getItem(key);
  if (!raw) return null;
  try {
    const draft = JSON.parse(raw) as Draft;
    if (typeof draft.savedAt === "number" && Date.now() - draft.savedAt < DRAFT_TTL_MS && draft.values) return draft;
  } catch {
    // not ours, or damaged
  }
  store.removeItem(key);
  return null;
}
