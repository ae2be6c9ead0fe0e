import type { Route } from "./+types/add-item";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { DataTable } from "#app/components/DataTable.tsx";
import { SelectField, TextField } from "#app/components/forms.tsx";
import { simpleItemSchema } from "#domain/catalogue.ts";
import { formAction } from "#app/lib/form.server.ts";
import { accessTypes, itemFormats } from "#domain/vocabulary.ts";
import { longDate } from "#domain/dates.ts";
import { requireStaff } from "#app/lib/guards.server.ts";

/** Stored simple items shown per page under the form. */
const PAGE_SIZE = 10;
/** The spec's success text (spec 2, section 7). */
const SAVED = "Item is Updated";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireStaff(request, context, "items");
  const page = new URL(request.url).searchParams.get("page");
  const list = await context.services.catalogue.listSimpleItems(viewer, { page, perPage: PAGE_SIZE });
  return { ...list, timeZone: context.config.timeZone };
}

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "items");
  return formAction(await request.formData(), {
    schema: simpleItemSchema,
    run: (item) => context.services.catalogue.addSimpleItem(viewer, item),
    success: SAVED,
    reset: true,
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Add Item" }, { name: "robots", content: "noindex" }];

export default function AddItem({ loaderData: { items, page, timeZone } }: Route.ComponentProps) {
  const form = useActionForm({ id: "add-item" });
  return (
    <>
      <div>
        <h1 className="text-3xl text-forest">Add Item</h1>

        <ActionForm
          handle={form}
          className="mt-8 grid gap-5 rounded-3xl bg-white p-6 ring-1 ring-linen sm:grid-cols-2 sm:p-8"
        >
          <SelectField label="Format" name="format" options={itemFormats.options()} required />
          <SelectField label="Free or Paid" name="freeOrPaid" options={accessTypes.options()} required />
          <TextField
            label="Canva Link"
            name="canvaLink"
            type="url"
            inputMode="url"
            placeholder="https://www.canva.com/design/…"
            required
          />
          <TextField label="Image Link" name="imageLink" type="url" inputMode="url" placeholder="https://…" required />
          <TextField label="Category" name="category" required className="sm:col-span-2" />
          <div className="sm:col-span-2">
            <button type="submit" className="btn-primary" disabled={form.busy}>
              Add Item
            </button>
          </div>
        </ActionForm>

        <div className="mt-10">
          <DataTable
            testId="simple-items"
            caption="Stored items"
            columns={[
              { header: "Format", cell: (i) => i.format },
              { header: "Category", cell: (i) => i.category },
              { header: "Free or Paid", cell: (i) => i.freeOrPaid },
              {
                header: "Links",
                cell: (i) => (
                  <span className="flex flex-wrap gap-3">
                    <a
                      href={i.canvaLink}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="text-clay hover:underline"
                    >
                      Canva
                    </a>
                    <a
                      href={i.imageLink}
                      target="_blank"
                      rel="noopener noreferrer"
                      className="text-clay hover:underline"
                    >
                      Image
                    </a>
                  </span>
                ),
              },
              { header: "Added", cell: (i) => longDate(i.createdAt, timeZone) },
            ]}
            rows={items}
            rowKey={(i) => i._id}
            empty="No items stored yet."
            page={page}
          />
        </div>
      </div>
    </>
  );
}
