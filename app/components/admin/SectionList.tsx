import {
  createContext,
  startTransition,
  useCallback,
  useContext,
  useState,
  type ComponentProps,
  type ReactNode,
} from "react";
import { Link, useSearchParams } from "react-router";
import type { ListLook } from "#domain/registry.ts";
import type { ListedRecord, RecordView, SectionView } from "#app/content/section-view.ts";
import { ActionForm, PageAnswer, useActionForm } from "../ActionForm";
import { onDemand } from "./on-demand";
import { OpenDialogButton } from "./OpenDialogButton";

// The dialogs load when first opened: most visits open none (./on-demand.ts; the server draws one an address opens).
const modal = onDemand(() => import("../Modal"));
const deleteDialog = onDemand(() => import("./DeleteDialog"));

type RecordListProps = {
  section: SectionView;
  records: readonly RecordView[];
  editForm: (record: ListedRecord, done: () => void) => ReactNode;
};

/**
 * A list section's records on its admin screen, in the look its registry entry names (links by default), each with
 * its title, edit address and card lines as the screen's loader worked them out (app/content/section-view.ts).
 * `editForm` draws the edit form for the dialog look (the form itself belongs to the screen).
 */
export function RecordList({ section, records, editForm }: RecordListProps) {
  return (
    <Curation section={section} records={records}>
      {records.length === 0 ? (
        <p className="mt-4 text-sm text-mist">None yet.</p>
      ) : (
        <Records section={section} records={records} editForm={editForm} />
      )}
    </Curation>
  );
}

function Records({ section, records, editForm }: RecordListProps) {
  const list = section.list;
  const controls = (r: RecordView, i: number) => (
    <RecordControls section={section} item={r} index={i} count={records.length} />
  );
  switch (list.look) {
    case "cards":
      return <CardList records={records} look={list} controls={controls} />;
    case "steps":
      return (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {records.map((r, i) => (
            <li key={r.record._id} className="rounded-xl border-l-4 border-clay bg-sand p-5">
              <p className="text-xs font-semibold text-clay">Step {String(r.record[list.number])}</p>
              <Link to={r.edit} className="mt-1 block font-serif text-lg text-forest hover:text-clay">
                {r.title}
              </Link>
              <p className="mt-1 text-sm text-mist">{String(r.record[list.details])}</p>
              <div className="mt-3">{controls(r, i)}</div>
            </li>
          ))}
        </ul>
      );
    case "numbers":
      return (
        <ul className="mt-6 flex flex-wrap gap-3">
          {records.map((r, i) =>
            !list.only || list.only.includes(String(r.record[list.number])) ? (
              <li key={r.record._id} className="flex flex-col items-center gap-2">
                <Link
                  to={r.edit}
                  className="inline-flex h-14 w-14 items-center justify-center rounded-full bg-forest font-serif text-lg text-white hover:bg-clay"
                >
                  {String(r.record[list.number])}
                </Link>
                {controls(r, i)}
              </li>
            ) : null,
          )}
        </ul>
      );
    case "dialog":
      return <DialogList records={records} look={list} editForm={editForm} controls={controls} />;
    case "links":
      return (
        <ul className="mt-4 divide-y divide-linen">
          {records.map((r, i) => (
            <li key={r.record._id} className="flex flex-wrap items-center justify-between gap-x-4 gap-y-1 py-2">
              {/* The title is the link to its edit screen (spec 2: "each title links to …"). */}
              <Link
                to={r.edit}
                className="group flex min-w-0 flex-1 basis-60 items-center justify-between gap-3 py-1 text-sm text-ink hover:text-clay"
              >
                <span className="min-w-0">{r.title}</span>
                <span className="shrink-0 font-semibold text-clay group-hover:underline">Edit</span>
              </Link>
              {controls(r, i)}
            </li>
          ))}
        </ul>
      );
  }
}

/** A look's records, its settings, and what draws each record's controls (move up, move down, delete). */
type LookProps<Look extends ListLook["look"]> = {
  records: readonly RecordView[];
  look: Extract<ListLook, { look: Look }>;
  controls: (record: RecordView, index: number) => ReactNode;
};

/** A card per record: its title, its lines, its edit link and its controls. */
function CardList({ records, look, controls }: LookProps<"cards">) {
  return (
    <ul className="mt-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
      {records.map((r, i) => (
        <li key={r.record._id} className="rounded-xl bg-sand p-5">
          <p className="font-serif text-lg text-forest">{r.title}</p>
          {r.lines.map((line, n) => (
            <p key={n} className={n === 0 ? "mt-2 text-sm" : "text-sm text-mist"}>
              {line}
            </p>
          ))}
          <div className="mt-4 flex flex-wrap items-center justify-between gap-2">
            <Link to={r.edit} className="btn-outline px-4 py-2 text-xs">
              {look.editText}
            </Link>
            {controls(r, i)}
          </div>
        </li>
      ))}
    </ul>
  );
}

/** One button per record, opening its edit form in a dialog with a close button (spec 2: the About sections). */
function DialogList({ records, look, editForm, controls }: LookProps<"dialog"> & Pick<RecordListProps, "editForm">) {
  // Without JavaScript the button opens this screen with ?edit={id}, which renders the dialog open.
  const [params] = useSearchParams();
  const editing = useDialog(() => records.find((r) => r.record._id === params.get("edit"))?.record);
  return (
    <>
      <ul className="mt-4 divide-y divide-linen">
        {records.map((r, i) => (
          <li key={r.record._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <span className="min-w-0 flex-1 basis-48 text-sm">{r.title}</span>
            <span className="flex flex-wrap items-center gap-3">
              <OpenDialogButton
                name="edit"
                value={r.record._id}
                onOpen={() => editing.open(r.record)}
                className="btn-outline px-4 py-2 text-xs"
              >
                {look.editText}
              </OpenDialogButton>
              {controls(r, i)}
            </span>
          </li>
        ))}
      </ul>
      {editing.drawn ? (
        <EditDialog open={editing.subject !== null} onClose={editing.close} title={look.dialogTitle}>
          {editing.subject ? editForm(editing.subject, editing.close) : null}
        </EditDialog>
      ) : null}
    </>
  );
}

function EditDialog(props: ComponentProps<typeof import("../Modal").Modal>) {
  const { Modal } = modal();
  return <Modal {...props} />;
}

function ConfirmDialog(props: ComponentProps<typeof import("./DeleteDialog").default>) {
  const { default: DeleteDialog } = deleteDialog();
  return <DeleteDialog {...props} />;
}

/**
 * A dialog's subject (null while closed), opened by address (`initial`, a ?edit= or ?delete= search) or by `open`.
 * It is drawn from its first opening on (its script loads then), so that closing it hands the focus back to the button
 * that opened it.
 */
function useDialog<T>(initial: () => T | undefined) {
  const [subject, setSubject] = useState<T | null>(() => initial() ?? null);
  const [drawn, setDrawn] = useState(subject !== null);
  // In a transition: the page stays as it is while the dialog's script arrives (./on-demand.ts).
  const open = useCallback((value: T) => {
    startTransition(() => {
      setSubject(value);
      setDrawn(true);
    });
  }, []);
  const close = useCallback(() => setSubject(null), []);
  return { subject, drawn, open, close };
}

/** The form ids of a record's curation forms (their answers come back with the page without JavaScript). */
export const deleteFormId = (type: string) => `delete:${type}`;
const moveFormId = (type: string, id: string) => `move:${type}:${id}`;

/** Opens the delete confirmation of the enclosing section. */
const AskDelete = createContext<((record: RecordView) => void) | null>(null);

/**
 * A section's curation: the one delete confirmation (a native dialog; without JavaScript the Delete button opens this
 * screen with ?delete={id}, which renders it open) and the answers of its delete and move forms.
 */
export function Curation({
  section,
  records,
  children,
}: {
  section: SectionView;
  records: readonly RecordView[];
  children: ReactNode;
}) {
  const [params] = useSearchParams();
  const deleting = useDialog(() => records.find((r) => r.record._id === params.get("delete")));
  return (
    <AskDelete.Provider value={deleting.open}>
      <PageAnswer form={deleteFormId(section.type)} />
      {children}
      {deleting.drawn ? (
        <ConfirmDialog
          formId={deleteFormId(section.type)}
          section={section}
          item={deleting.subject}
          onClose={deleting.close}
        />
      ) : null}
    </AskDelete.Provider>
  );
}

/** A Delete button that asks first (the section's dialog). */
export function DeleteButton({ section, item }: { section: SectionView; item: RecordView }) {
  const ask = useContext(AskDelete);
  const title = item.title || section.title;
  return (
    <OpenDialogButton
      name="delete"
      value={item.record._id}
      onOpen={() => ask?.(item)}
      className="rounded-full px-3 py-1.5 text-xs font-semibold text-red-800 ring-1 ring-red-200 hover:bg-red-50"
      label={`Delete ${title}`}
    >
      Delete
    </OpenDialogButton>
  );
}

/** Move up, move down (a list's order is stored; the public pages follow it) and delete, for one record. */
function RecordControls({
  section,
  item,
  index,
  count,
}: {
  section: SectionView;
  item: RecordView;
  index: number;
  count: number;
}) {
  const form = useActionForm({ id: moveFormId(section.type, item.record._id) });
  const title = item.title || section.title;
  const arrow =
    "inline-flex h-8 w-8 items-center justify-center rounded-full text-forest ring-1 ring-linen hover:bg-sand disabled:opacity-30 disabled:hover:bg-transparent";
  return (
    <span className="flex items-center gap-1.5" data-testid="record-controls">
      {count > 1 ? (
        <ActionForm
          handle={form}
          intent="move"
          hidden={{ type: section.type, id: item.record._id }}
          className="contents"
        >
          <button
            type="submit"
            name="direction"
            value="up"
            className={arrow}
            disabled={index === 0 || form.busy}
            aria-label={`Move ${title} up`}
            title="Move up"
          >
            <span aria-hidden="true">↑</span>
          </button>
          <button
            type="submit"
            name="direction"
            value="down"
            className={arrow}
            disabled={index === count - 1 || form.busy}
            aria-label={`Move ${title} down`}
            title="Move down"
          >
            <span aria-hidden="true">↓</span>
          </button>
        </ActionForm>
      ) : null}
      <DeleteButton section={section} item={item} />
    </span>
  );
}
