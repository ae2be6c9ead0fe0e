import { useState, type ReactNode } from "react";
import { Link, useSearchParams } from "react-router";
import { editHref } from "../../content/admin-screens";
import { recordTitle, type ListLook, type SectionDef } from "../../../domain/registry";
import { formatPrice } from "../../lib/pricing";
import { Modal, OpenDialogButton } from "../Modal";

export type ListedRecord = Record<string, unknown> & { _id: string };

/** A card line from its template: "{field}" is the value, "{field:price}" the value as money. */
export function fillLine(template: string, record: Record<string, unknown>): string {
  return template.replace(/\{(\w+)(?::(\w+))?\}/g, (_, name: string, format?: string) =>
    format === "price" ? formatPrice(Number(record[name])) : String(record[name] ?? ""),
  );
}

/**
 * A list section's records on its admin screen, in the look its registry entry names (links by default).
 * `editForm` draws the edit form for the dialog look (the form itself belongs to the screen).
 */
export function RecordList({
  section,
  records,
  editForm,
}: {
  section: SectionDef;
  records: ListedRecord[];
  editForm: (record: ListedRecord, done: () => void) => ReactNode;
}) {
  if (records.length === 0) return <p className="mt-4 text-sm text-mist">None yet.</p>;
  const list: ListLook = section.admin.list ?? { look: "links" };
  const title = (r: ListedRecord) => recordTitle(section, r);
  switch (list.look) {
    case "cards":
      return (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2 xl:grid-cols-3">
          {records.map((r) => (
            <li key={r._id} className="rounded-xl bg-sand p-5">
              <p className="font-serif text-lg text-forest">{title(r)}</p>
              {list.lines.map((line, i) => (
                <p key={i} className={i === 0 ? "mt-2 text-sm" : "text-sm text-mist"}>
                  {fillLine(line, r)}
                </p>
              ))}
              <Link to={editHref(section, r._id)} className="btn-outline mt-4 px-4 py-2 text-xs">
                {list.editText}
              </Link>
            </li>
          ))}
        </ul>
      );
    case "steps":
      return (
        <ul className="mt-6 grid gap-4 sm:grid-cols-2">
          {records.map((r) => (
            <li key={r._id} className="rounded-xl border-l-4 border-clay bg-sand p-5">
              <p className="text-xs font-semibold text-clay">Step {String(r[list.number])}</p>
              <Link to={editHref(section, r._id)} className="mt-1 block font-serif text-lg text-forest hover:text-clay">
                {title(r)}
              </Link>
              <p className="mt-1 text-sm text-mist">{String(r[list.details])}</p>
            </li>
          ))}
        </ul>
      );
    case "numbers":
      return (
        <ul className="mt-6 flex flex-wrap gap-3">
          {records
            .filter((r) => !list.only || list.only.includes(String(r[list.number])))
            .map((r) => (
              <li key={r._id}>
                <Link
                  to={editHref(section, r._id)}
                  className="inline-flex h-14 w-14 items-center justify-center rounded-full bg-forest font-serif text-lg text-white hover:bg-clay"
                >
                  {String(r[list.number])}
                </Link>
              </li>
            ))}
        </ul>
      );
    case "dialog":
      return <DialogList records={records} title={title} look={list} editForm={editForm} />;
    case "links":
      return (
        <ul className="mt-4 divide-y divide-linen">
          {records.map((r) => (
            <li key={r._id}>
              {/* The title is the link to its edit screen (spec 2: "each title links to …"). */}
              <Link
                to={editHref(section, r._id)}
                className="group flex items-center justify-between gap-3 py-3 text-sm text-ink hover:text-clay"
              >
                <span className="min-w-0">{title(r)}</span>
                <span className="shrink-0 font-semibold text-clay group-hover:underline">Edit</span>
              </Link>
            </li>
          ))}
        </ul>
      );
  }
}

/** One button per record, opening its edit form in a dialog with a close button (spec 2: the About sections). */
function DialogList({
  records,
  title,
  look,
  editForm,
}: {
  records: ListedRecord[];
  title: (r: ListedRecord) => string;
  look: Extract<ListLook, { look: "dialog" }>;
  editForm: (record: ListedRecord, done: () => void) => ReactNode;
}) {
  // Without JavaScript the button opens this screen with ?edit={id}, which renders the dialog open.
  const [params] = useSearchParams();
  const [editing, setEditing] = useState<ListedRecord | null>(
    () => records.find((r) => r._id === params.get("edit")) ?? null,
  );
  const close = () => setEditing(null);
  return (
    <>
      <ul className="mt-4 divide-y divide-linen">
        {records.map((r) => (
          <li key={r._id} className="flex flex-wrap items-center justify-between gap-3 py-3">
            <span className="text-sm">{title(r)}</span>
            <OpenDialogButton
              name="edit"
              value={r._id}
              onOpen={() => setEditing(r)}
              className="btn-outline px-4 py-2 text-xs"
            >
              {look.editText}
            </OpenDialogButton>
          </li>
        ))}
      </ul>
      <Modal open={editing !== null} onClose={close} title={look.dialogTitle}>
        {editing ? editForm(editing, close) : null}
      </Modal>
    </>
  );
}
