import { apiFetch } from "#app/lib/api.ts";
import { generationOutcome, reasonOf, type Email } from "#app/lib/generator.ts";
import { newestToasts, TOAST_MS } from "#app/lib/toast-times.ts";

/**
 * The item generator's behaviour (spec 1, sections 8 and 9), written against the page's HTML rather than in React, so
 * that the item page can be sent as a plain page with this one small script (decision 057): React and React Router
 * are 105 KB gzipped, this is about 2 KB. The markup is drawn by React on the server (Generator.tsx): the parts it
 * changes are named by `data-gen` attributes, and what it adds (the results, a card, an error) is cloned from
 * <template>s drawn there, so the look lives in one place. The same function runs inline on the plain page
 * (generator-inline.ts) and from an effect when React draws the page after a navigation in the browser.
 *
 * Idle → generating (a fixed wait; earlier results and errors cleared) → one template, or an error. Copy buttons put
 * the subject or body on the clipboard and say so in a toast; 'Edit Template' opens the editor, read-only until its
 * own 'Edit Template', whose 'Save Changes' replaces the text on screen only (nothing is sent to the server).
 */

/** The spec's wait before results scroll into view (spec 1, section 9). */
const SCROLL_DELAY_MS = 100;

/** The attribute that names the parts the script reads and changes. */
export const GEN = "data-gen";

/** What the script clones: each drawn once in a <template> named `{name}-template`. */
type Template = "error" | "results" | "card" | "toast";

export type GeneratorPart =
  | `${Template}-template`
  | "title"
  | "generate"
  | "label"
  | "idle-icon"
  | "spinner"
  | "status"
  | "error-slot"
  | "results-slot"
  | "list"
  | "count"
  | "number"
  | "subject"
  | "body"
  | "editor-subject"
  | "editor-body"
  | "editor-edit"
  | "editor-save"
  | "text";

/** The data attribute a part carries: `{...gen("title")}` in the markup. */
export function gen(part: GeneratorPart): Record<typeof GEN, GeneratorPart> {
  return { [GEN]: part } as Record<typeof GEN, GeneratorPart>;
}

function missing(what: string): never {
  throw new Error(`The generator's markup has no ${what}`);
}

export interface GeneratorOptions {
  /** Says a copy worked; by default a toast cloned from the page's toast template into the page's toast region. */
  notify?: (text: string) => void;
}

/** A generator's parts, found once, and what it holds while it runs. */
interface Wired {
  root: HTMLElement;
  part: <E extends Element = HTMLElement>(name: GeneratorPart, within?: ParentNode) => E;
  clone: (name: Template) => HTMLElement;
  itemId: string;
  delayMs: number;
  title: HTMLElement;
  button: HTMLButtonElement;
  editor: HTMLDialogElement;
  editorSubject: HTMLInputElement;
  editorBody: HTMLTextAreaElement;
  editButton: HTMLElement;
  saveButton: HTMLElement;
  notify: (text: string) => void;
  emails: Email[];
  editing: number | null;
  run: number;
}

/** Finds the generator's parts inside `root` (a part missing throws) and starts with no emails. */
function wire(root: HTMLElement, options: GeneratorOptions): Wired {
  const part = <E extends Element = HTMLElement>(name: GeneratorPart, within: ParentNode = root) => {
    return within.querySelector<E>(`[${GEN}="${name}"]`) ?? missing(name);
  };
  const clone = (name: Template) =>
    part<HTMLTemplateElement>(`${name}-template`).content.firstElementChild!.cloneNode(true) as HTMLElement;

  // React drawing the page in the browser puts a <template>'s markup among its children, where the HTML parser puts
  // it in its content: moved there, it is out of the page (no second "generated" list, no duplicate ids).
  for (const template of root.querySelectorAll("template"))
    if (!template.content.firstChild) template.content.append(...template.childNodes);

  const itemId = root.dataset.item ?? "";
  const delayMs = Number(root.dataset.delayMs ?? 0);
  const title = part("title");
  const button = part<HTMLButtonElement>("generate");
  // The editor is the generator's one <dialog> (a Modal, which takes no attributes of ours).
  const editor = root.querySelector("dialog") ?? missing("editor dialog");
  const editorSubject = part<HTMLInputElement>("editor-subject", editor);
  const editorBody = part<HTMLTextAreaElement>("editor-body", editor);
  const editButton = part("editor-edit", editor);
  const saveButton = part("editor-save", editor);
  const notify = options.notify ?? ((text: string) => showToast(part, clone, text));
  return {
    root,
    part,
    clone,
    itemId,
    delayMs,
    title,
    button,
    editor,
    editorSubject,
    editorBody,
    editButton,
    saveButton,
    notify,
    emails: [],
    editing: null,
    run: 0,
  };
}

/** The default notice: a toast cloned from the page's toast template into the page's toast region. */
function showToast(part: Wired["part"], clone: Wired["clone"], text: string) {
  const region = document.querySelector('[data-testid="toasts"]');
  if (!region) return;
  const toast = clone("toast");
  part("text", toast).textContent = text;
  region.append(toast);
  // The oldest go once the region holds more than the limit, as in React's toasts.
  const shown = [...region.children];
  const kept = new Set(newestToasts(shown));
  for (const old of shown) if (!kept.has(old)) old.remove();
  setTimeout(() => toast.remove(), TOAST_MS.success);
}

function setGenerating({ root, part, title, button }: Wired, on: boolean) {
  title.textContent = on ? "AI is Writing Your Emails..." : (root.dataset.title ?? "");
  button.disabled = on;
  button.ariaBusy = String(on);
  part("label", button).textContent = on ? "Generating" : "Generate";
  part("idle-icon", button).toggleAttribute("hidden", on);
  part("spinner", button).toggleAttribute("hidden", !on);
  part("status").toggleAttribute("hidden", !on);
}

function showError({ part, clone }: Wired, message: string | null) {
  const slot = part("error-slot");
  slot.replaceChildren();
  if (message === null) return;
  const box = clone("error");
  box.textContent = message;
  slot.append(box);
}

function showEmails(g: Wired, list: Email[]) {
  const { part, clone } = g;
  g.emails = list;
  const slot = part("results-slot");
  slot.replaceChildren();
  if (list.length === 0) return;
  const results = clone("results");
  part("count", results).textContent = String(list.length);
  part("list", results).append(
    ...list.map((email, i) => {
      const card = clone("card");
      card.dataset.index = String(i);
      part("number", card).textContent = String(i + 1);
      part("subject", card).textContent = email.subject;
      part("body", card).textContent = email.body;
      return card;
    }),
  );
  slot.append(results);
  setTimeout(() => {
    if (results.isConnected) results.scrollIntoView({ behavior: "smooth", block: "start" });
  }, SCROLL_DELAY_MS);
}

async function generate(g: Wired) {
  const current = ++g.run;
  setGenerating(g, true);
  showEmails(g, []);
  showError(g, null);
  try {
    const wait = new Promise((resolve) => setTimeout(resolve, g.delayMs));
    const answer = apiFetch(`/api/database/${g.itemId}/templates`).catch((networkError: unknown) => ({
      networkError,
    }));
    const [outcome] = await Promise.all([answer.then((a) => generationOutcome(a)), wait]);
    if (current !== g.run) return;
    if (outcome.ok) showEmails(g, outcome.emails);
    else showError(g, outcome.message);
  } catch (failure) {
    if (current === g.run) showError(g, `Failed to generate emails: ${reasonOf(failure)}`);
  } finally {
    if (current === g.run) setGenerating(g, false);
  }
}

async function copy({ notify }: Wired, text: string, what: "Subject" | "Email Body") {
  try {
    await navigator.clipboard.writeText(text);
    notify(`Copied ${what}!`);
  } catch (failure) {
    console.error("Copy to the clipboard failed:", failure);
  }
}

function setEditable({ editorSubject, editorBody, editButton, saveButton }: Wired, on: boolean) {
  editorSubject.readOnly = !on;
  editorBody.readOnly = !on;
  editButton.toggleAttribute("hidden", on);
  saveButton.toggleAttribute("hidden", !on);
}

function openEditor(g: Wired, index: number) {
  const email = g.emails[index];
  if (!email) return;
  g.editing = index;
  g.editorSubject.value = email.subject;
  g.editorBody.value = email.body;
  setEditable(g, false);
  if (!g.editor.open) g.editor.showModal();
}

function save(g: Wired) {
  const { editing, part } = g;
  if (editing === null) return;
  const changed = { subject: g.editorSubject.value, body: g.editorBody.value };
  g.emails = g.emails.map((e, i) => (i === editing ? changed : e));
  const card = g.root.querySelector(`[${GEN}="results-slot"] [data-index="${editing}"]`);
  if (card) {
    part("subject", card).textContent = changed.subject;
    part("body", card).textContent = changed.body;
  }
  g.editor.close();
}

function onClick(g: Wired, event: MouseEvent) {
  const { editor, emails } = g;
  const target = event.target as Element;
  // A click on the dialog element itself (not its content) is a click on the backdrop.
  if (target === editor) return editor.close();
  const action = target.closest<HTMLElement>("[data-action]")?.dataset.action;
  const card = target.closest<HTMLElement>("[data-index]");
  const index = Number(card?.dataset.index);
  switch (action) {
    case "generate":
      return void generate(g);
    case "copy-subject":
      return void copy(g, emails[index]?.subject ?? "", "Subject");
    case "copy-body":
      return void copy(g, emails[index]?.body ?? "", "Email Body");
    case "open-editor":
      return openEditor(g, index);
    case "edit":
      setEditable(g, true);
      return g.editorSubject.focus();
    case "save":
      return save(g);
    case "close":
      return editor.close();
  }
}

/** Wires the generator drawn inside `root` (its item id and wait in `data-item` and `data-delay-ms`); returns the
 * function that stops it (nothing lands after that). */
export function startGenerator(root: HTMLElement, options: GeneratorOptions = {}): () => void {
  const g = wire(root, options);
  const click = (event: MouseEvent) => onClick(g, event);
  const close = () => {
    g.editing = null;
  };
  root.addEventListener("click", click);
  g.editor.addEventListener("close", close);
  return () => {
    g.run++;
    root.removeEventListener("click", click);
    g.editor.removeEventListener("close", close);
  };
}
