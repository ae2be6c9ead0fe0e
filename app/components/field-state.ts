import { createContext, useContext } from "react";
import type { ActionFormHandle } from "./ActionForm";

/*
 * The link between a form and its fields, apart from the form's own code (./ActionForm.tsx): the fields (./forms.tsx)
 * are also used in forms that post nowhere through it (a desk's GET filters), and those pages need not load it.
 */

/** The enclosing ActionForm's handle (set by ActionForm). */
export const FieldsContext = createContext<ActionFormHandle | null>(null);

/** What a field needs from its form: where its value starts, its error, and ids unique on the page. */
export interface FieldState {
  id: string;
  errorId: string;
  defaultValue?: string;
  error?: string;
  key: string | undefined;
}

/** The state of the field `name` of the enclosing ActionForm, or nothing outside one. */
export function useFieldState(name: string): FieldState | undefined {
  const handle = useContext(FieldsContext);
  if (!handle) return undefined;
  const field = handle.fields[name];
  if (!field) return undefined;
  return {
    id: field.id,
    errorId: field.errorId,
    defaultValue: typeof field.initialValue === "string" ? field.initialValue : undefined,
    error: field.errors?.[0],
    key: field.key,
  };
}
