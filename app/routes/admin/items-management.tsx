import { useState, type FormEvent } from "react";
import { useRevalidator } from "react-router";
import type { Route } from "./+types/items-management";
import { FormAlert } from "../../components/AuthCard";
import { DataTable } from "../../components/DataTable";
import { SelectField, TextAreaField, TextField } from "../../components/forms";
import { Modal } from "../../components/Modal";
import { useToast } from "../../components/toast";
import { parseWith, type FieldError } from "../../content/validation";
import { apiFetch } from "../../lib/api";
import { availableCategories, itemFormSchema } from "../../lib/catalogue";
import { categories as allCategories, categoryLabel } from "../../../domain/vocabulary";
import { requireAdmin } from "../../lib/guards.server";
import type { CatalogueItem } from "../../../server/services/catalogue";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  const { items } = await context.services.catalogue.list(viewer);
  return { items: items as CatalogueItem[] };
}

export const meta: Route.MetaFunction = () => [{ title: "Items Management" }, { name: "robots", content: "noindex" }];

type Answer = { success?: boolean; error?: string; errors?: FieldError[] };
type Editor = { mode: "add" } | { mode: "edit"; item: CatalogueItem } | null;

/**
 * /items-management: the catalogue items with Edit and Delete, and one modal to add or edit an item. Saving and
 * deleting go through the REST calls; the list then reloads from the server.
 */
export default function ItemsManagement({ loaderData: { items } }: Route.ComponentProps) {
  const [editor, setEditor] = useState<Editor>(null);
  const [deleting, setDeleting] = useState<string | null>(null);
  const revalidator = useRevalidator();
  const toast = useToast();
  const used = items.map((i) => i.itemDatabaseUrl);
  const free = availableCategories(allCategories.values, used);
  const allUsed = free.length === 0;

  async function remove(item: CatalogueItem) {
    if (!window.confirm("Delete this item?")) return;
    setDeleting(item._id);
    try {
      const res = await apiFetch<Answer>(`/api/database/${item._id}`, { method: "DELETE" });
      const answer = res.data as Answer;
      if (res.ok && answer.success) await revalidator.revalidate();
      else toast("error", answer.error || "Delete failed");
    } catch (failure) {
      console.error("Delete item error:", failure);
      toast("error", "Failed to delete item");
    } finally {
      setDeleting(null);
    }
  }

  return (
    <>
      <div>
        <div className="flex flex-wrap items-end justify-between gap-4">
          <div>
            <h1 className="text-3xl text-forest">Items Management</h1>
            <p className="mt-2 text-sm text-mist">
              Each item opens the cold-email generator of one category; a category belongs to one item at a time.
            </p>
          </div>
          <span title={allUsed ? "All URLs are already in use" : undefined}>
            <button
              type="button"
              className="btn-primary"
              disabled={allUsed}
              title={allUsed ? "All URLs are already in use" : undefined}
              onClick={() => setEditor({ mode: "add" })}
            >
              + Add New Item
            </button>
          </span>
        </div>

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
            columns={[
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
                className: "md:w-48",
                cell: (i) => (
                  <span className="flex gap-2">
                    <button
                      type="button"
                      className="btn-outline px-4 py-1.5 text-xs"
                      onClick={() => setEditor({ mode: "edit", item: i })}
                      aria-label={`Edit ${i.itemName}`}
                    >
                      Edit
                    </button>
                    <button
                      type="button"
                      className="btn px-4 py-1.5 text-xs text-red-700 ring-1 ring-red-200 hover:bg-red-50"
                      onClick={() => remove(i)}
                      disabled={deleting === i._id}
                      aria-label={`Delete ${i.itemName}`}
                    >
                      Delete
                    </button>
                  </span>
                ),
              },
            ]}
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
            onSaved={async () => {
              await revalidator.revalidate();
              setEditor(null);
            }}
          />
        ) : null}
      </Modal>
    </>
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
  onSaved: () => Promise<void>;
}) {
  const [errors, setErrors] = useState<FieldError[]>([]);
  const [message, setMessage] = useState<string | null>(null);
  const [busy, setBusy] = useState(false);
  const toast = useToast();
  const error = (field: string) => errors.find((e) => e.field === field)?.message;

  async function submit(event: FormEvent<HTMLFormElement>) {
    event.preventDefault();
    const values = Object.fromEntries(new FormData(event.currentTarget));
    const parsed = parseWith(itemFormSchema, values);
    setMessage(null);
    if (!parsed.ok) {
      setErrors(parsed.errors);
      return;
    }
    setErrors([]);
    setBusy(true);
    try {
      const res = await apiFetch<Answer>(item ? `/api/database/${item._id}` : "/api/add-database", {
        method: item ? "PUT" : "POST",
        json: parsed.data,
      });
      const answer = res.data as Answer;
      if (res.ok && answer.success) {
        await onSaved();
        return;
      }
      const text = answer.error || "Error saving item";
      setErrors(answer.errors ?? []);
      setMessage(text);
      toast("error", text);
    } catch (failure) {
      console.error("Save item error:", failure);
      setMessage("Failed to save item");
      toast("error", "Failed to save item");
    } finally {
      setBusy(false);
    }
  }

  return (
    <form noValidate onSubmit={submit} className="grid gap-5">
      {message ? <FormAlert>{message}</FormAlert> : null}
      <TextField label="Item Name" name="itemName" defaultValue={item?.itemName} error={error("itemName")} />
      <TextAreaField
        label="Description"
        name="itemsDescription"
        rows={3}
        defaultValue={item?.itemsDescription}
        error={error("itemsDescription")}
      />
      <SelectField
        label="Category"
        name="itemDatabaseUrl"
        placeholder="Select a category"
        options={categories.map((key) => ({ value: key, label: categoryLabel(key) }))}
        defaultValue={item?.itemDatabaseUrl ?? ""}
        error={error("itemDatabaseUrl")}
      />
      <TextAreaField
        label="Guideline"
        name="itemsGuideline"
        rows={3}
        defaultValue={item?.itemsGuideline}
        error={error("itemsGuideline")}
      />
      <div className="flex flex-wrap justify-end gap-3">
        <button type="button" className="btn-outline" onClick={onCancel}>
          Cancel
        </button>
        <button type="submit" className="btn-primary" disabled={busy}>
          {item ? "Update Item" : "Add Item"}
        </button>
      </div>
    </form>
  );
}
