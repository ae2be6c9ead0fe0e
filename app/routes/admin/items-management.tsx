import { useState } from "react";
import { data, useActionData, useSearchParams } from "react-router";
import type { Route } from "./+types/items-management";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { DataTable, type Column } from "#app/components/DataTable.tsx";
import { SelectField, TextAreaField, TextField } from "#app/components/forms.tsx";
import { OpenDialogButton } from "#app/components/admin/OpenDialogButton.tsx";
import { Modal } from "#app/components/Modal.tsx";
import { availableCategories, itemFormSchema } from "#domain/catalogue.ts";
import type { FormAnswer } from "#app/lib/form.ts";
import { formAction } from "#app/lib/form.server.ts";
import { categories as allCategories, categoryLabel } from "#domain/vocabulary.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import type { CatalogueItem } from "#server/services/catalogue.ts";

const SCREEN = "/items-management";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "items");
  const { items } = await context.services.catalogue.list(viewer);
  return { items: items as CatalogueItem[] };
}

/** The modal's add and edit forms and each row's delete (intent add, update, delete). */
export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "items");
  const form = await request.formData();
  const intent = form.get("intent");
  const id = String(form.get("id") ?? "");
  const { catalogue } = context.services;
  if (intent === "delete") return formAction(form, { run: () => catalogue.remove(viewer, id) });
  if (intent === "add")
    return formAction(form, { schema: itemFormSchema, run: (item) => catalogue.add(viewer, item), reset: true });
  if (intent === "update")
    return formAction(form, { schema: itemFormSchema, run: (item) => catalogue.update(viewer, id, item) });
  throw data({ message: "Unknown form" }, { status: 400 });
}

export const meta: Route.MetaFunction = () => [{ title: "Items Management" }, { name: "robots", content: "noindex" }];

type Editor = { mode: "add" } | { mode: "edit"; item: CatalogueItem } | null;

const editorFormId = (editor: "new" | string) => `item:${editor}`;

/**
 * /items-management: the catalogue items with Edit and Delete, and one modal to add or edit an item, all posting to
 * this screen's action (the one form pattern); the list then reloads. Without JavaScript, ?editor=new or
 * ?editor={id} opens the modal, and a refused save opens it again with the answer.
 */
export default function ItemsManagement({ loaderData: { items } }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const answer = useActionData() as FormAnswer | undefined;
  const refused = answer && !answer.ok && answer.form.startsWith("item:") ? answer.form.slice(5) : null;
  const [editor, setEditor] = useState<Editor>(() => {
    const wanted = refused ?? params.get("editor");
    if (wanted === "new") return { mode: "add" };
    const item = items.find((i) => i._id === wanted);
    return item ? { mode: "edit", item } : null;
  });
  const used = items.map((i) => i.itemDatabaseUrl);
  const free = availableCategories(allCategories.values, used);
  const allUsed = free.length === 0;

  return (
    <>
      <div>
        <ItemsHeading allUsed={allUsed} onAdd={() => setEditor({ mode: "add" })} />

        {allUsed ? (
          <p
            role="status"
            className="mt-6 rounded-xl bg-amber-50 px-4 py-3 text-sm text-amber-900 ring-1 ring-amber-200"
          >
            All available Categories are currently in use. You need to delete an item to add a new one.
          </p>
        ) : null}

        <div className="mt-8">
          <DataTable
            testId="items-table"
            columns={itemColumns((item) => setEditor({ mode: "edit", item }))}
            rows={items}
            rowKey={(i) => i._id}
            empty="No items found."
          />
        </div>
      </div>

      <Modal
        open={editor !== null}
        onClose={() => setEditor(null)}
        title={editor?.mode === "edit" ? "Edit Item" : "Add New Item"}
        testId="item-modal"
      >
        {editor ? (
          <ItemForm
            key={editor.mode === "edit" ? editor.item._id : "new"}
            item={editor.mode === "edit" ? editor.item : undefined}
            categories={availableCategories(
              allCategories.values,
              used,
              editor.mode === "edit" ? editor.item.itemDatabaseUrl : undefined,
            )}
            onCancel={() => setEditor(null)}
            onSaved={() => setEditor(null)}
          />
        ) : null}
      </Modal>
    </>
  );
}

/** The title, and the button that opens the modal to add an item (while a category is free). */
function ItemsHeading({ allUsed, onAdd }: { allUsed: boolean; onAdd: () => void }) {
  return (
    <div className="flex flex-wrap items-end justify-between gap-4">
      <div>
        <h1 className="text-3xl text-forest">Items Management</h1>
        <p className="mt-2 text-sm text-mist">
          Each item opens the cold-email generator of one category; a category belongs to one item at a time.
        </p>
      </div>
      <span title={allUsed ? "All URLs are already in use" : undefined}>
        <OpenDialogButton
          name="editor"
          value="new"
          className="btn-primary"
          disabled={allUsed}
          title={allUsed ? "All URLs are already in use" : undefined}
          onOpen={onAdd}
        >
          + Add New Item
        </OpenDialogButton>
      </span>
    </div>
  );
}

/** The catalogue's columns; `edit` opens the modal on an item. */
function itemColumns(edit: (item: CatalogueItem) => void): Column<CatalogueItem>[] {
  return [
    {
      header: "Item Name",
      cell: (i) => (
        <span>
          <span className="font-medium text-forest">{i.itemName}</span>
          <span className="mt-0.5 block text-xs text-mist">{categoryLabel(i.itemDatabaseUrl)}</span>
        </span>
      ),
    },
    {
      header: "Description",
      cell: (i) => <span className="line-clamp-2 text-mist">{i.itemsDescription}</span>,
    },
    {
      header: "Actions",
      pinned: true,
      className: "md:w-48",
      cell: (i) => (
        <span className="flex gap-2">
          <OpenDialogButton
            name="editor"
            value={i._id}
            className="btn-outline px-4 py-1.5 text-xs"
            onOpen={() => edit(i)}
            label={`Edit ${i.itemName}`}
          >
            Edit
          </OpenDialogButton>
          <DeleteItem item={i} />
        </span>
      ),
    },
  ];
}

/** 'Delete this item?' first; the server's refusal as a toast (spec 2: server error text). */
function DeleteItem({ item }: { item: CatalogueItem }) {
  const form = useActionForm({ id: `delete:${item._id}`, action: SCREEN });
  return (
    <ActionForm
      handle={form}
      intent="delete"
      hidden={{ id: item._id }}
      className="contents"
      onSubmit={(event) => {
        if (!window.confirm("Delete this item?")) event.preventDefault();
      }}
    >
      <button
        type="submit"
        className="btn px-4 py-1.5 text-xs text-red-700 ring-1 ring-red-200 hover:bg-red-50"
        disabled={form.busy}
        aria-label={`Delete ${item.itemName}`}
      >
        Delete
      </button>
    </ActionForm>
  );
}

function ItemForm({
  item,
  categories,
  onCancel,
  onSaved,
}: {
  item?: CatalogueItem;
  categories: string[];
  onCancel: () => void;
  onSaved: () => void;
}) {
  const form = useActionForm({
    id: editorFormId(item?._id ?? "new"),
    // Saved, the page shows the list without the modal; refused, it opens the modal again (see above).
    action: SCREEN,
    defaultValue: item,
    onSuccess: onSaved,
  });
  return (
    <ActionForm
      handle={form}
      intent={item ? "update" : "add"}
      hidden={item ? { id: item._id } : {}}
      className="grid gap-5"
    >
      <TextField label="Item Name" name="itemName" />
      <TextAreaField label="Description" name="itemsDescription" rows={3} />
      <SelectField
        label="Category"
        name="itemDatabaseUrl"
        placeholder="Select a category"
        options={categories.map((key) => ({ value: key, label: categoryLabel(key) }))}
      />
      <TextAreaField label="Guideline" name="itemsGuideline" rows={3} />
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" className="btn-outline" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={form.busy}>
          {item ? "Update Item" : "Add Item"}
        </button>
      </div>
    </ActionForm>
  );
}
