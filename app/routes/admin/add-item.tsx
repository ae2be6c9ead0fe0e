import { useFetcher } from "react-router";
import type { Route } from "./+types/add-item";
import { FormAlert } from "../../components/AuthCard";
import { DataTable } from "../../components/DataTable";
import { SelectField, TextField, useClientValidation, useFormFeedback, type FormResult } from "../../components/forms";
import { simpleItemSchema } from "../../lib/catalogue";
import { accessTypes, itemFormats } from "../../../domain/vocabulary";
import { longDate } from "../../../domain/dates";
import { requireAdmin } from "../../lib/guards.server";
import { isAppError } from "../../../server/lib/errors";

/** Stored simple items shown per page under the form. */
const PAGE_SIZE = 10;
/** The spec's success text (spec 2, section 7). */
const SAVED = "Item is Updated";

export async function loader({ request, context }: Route.LoaderArgs) {
  const viewer = await requireAdmin(request, context);
  const page = new URL(request.url).searchParams.get("page");
  const list = await context.services.catalogue.listSimpleItems(viewer, { page, perPage: PAGE_SIZE });
  return { ...list, timeZone: context.config.timeZone };
}

export async function action({ request, context }: Route.ActionArgs): Promise<FormResult> {
  const viewer = await requireAdmin(request, context);
  const values: Record<string, string> = {};
  for (const [k, v] of await request.formData()) if (typeof v === "string") values[k] = v;
  try {
    await context.services.catalogue.addSimpleItem(viewer, values);
    return { ok: true, message: SAVED };
  } catch (error) {
    if (isAppError(error) && error.status === 400) {
      return { ok: false, message: error.message, errors: error.errors, values };
    }
    throw error;
  }
}

export const meta: Route.MetaFunction = () => [{ title: "Add Item" }, { name: "robots", content: "noindex" }];

export default function AddItem({ loaderData: { items, page, timeZone }, actionData }: Route.ComponentProps) {
  const fetcher = useFetcher<FormResult>();
  const formRef = useFormFeedback(fetcher);
  // Posted before the page was interactive (or without JavaScript), the answer comes as the route's: shown inline.
  const result = fetcher.data ?? actionData;
  const { error, onSubmit } = useClientValidation(simpleItemSchema, result && !result.ok ? result : undefined);
  const values = result && !result.ok ? result.values : {};
  const busy = fetcher.state !== "idle";
  const message = error; // the browser's check first, then the server's answer
  return (
    <>
      <div>
        <h1 className="text-3xl text-forest">Add Item</h1>

        <fetcher.Form
          ref={formRef}
          method="post"
          noValidate
          onSubmit={onSubmit}
          className="mt-8 grid gap-5 rounded-3xl bg-white p-6 ring-1 ring-linen sm:grid-cols-2 sm:p-8"
        >
          {!fetcher.data && actionData ? (
            <div className="sm:col-span-2">
              <FormAlert tone={actionData.ok ? "success" : "error"}>{actionData.message}</FormAlert>
            </div>
          ) : null}
          <SelectField
            label="Format"
            name="format"
            options={itemFormats.options()}
            required
            defaultValue={values.format ?? ""}
            error={message("format")}
          />
          <SelectField
            label="Free or Paid"
            name="freeOrPaid"
            options={accessTypes.options()}
            required
            defaultValue={values.freeOrPaid ?? ""}
            error={message("freeOrPaid")}
          />
          <TextField
            label="Canva Link"
            name="canvaLink"
            type="url"
            inputMode="url"
            placeholder="https://www.canva.com/design/…"
            required
            defaultValue={values.canvaLink}
            error={message("canvaLink")}
          />
          <TextField
            label="Image Link"
            name="imageLink"
            type="url"
            inputMode="url"
            placeholder="https://…"
            required
            defaultValue={values.imageLink}
            error={message("imageLink")}
          />
          <TextField
            label="Category"
            name="category"
            required
            defaultValue={values.category}
            error={message("category")}
            className="sm:col-span-2"
          />
          <div className="sm:col-span-2">
            <button type="submit" className="btn-primary" disabled={busy}>
              Add Item
            </button>
          </div>
        </fetcher.Form>

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
