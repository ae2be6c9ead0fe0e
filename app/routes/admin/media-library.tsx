import { Link, useRevalidator, useSearchParams } from "react-router";
import { z } from "zod";
import type { Route } from "./+types/media-library";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { Pagination } from "#app/components/DataTable.tsx";
import { TextField } from "#app/components/forms.tsx";
import { MediaThumbnail, UploadBox } from "#app/components/media/MediaPicker.tsx";
import { useToast } from "#app/components/toast.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { formatBytes, type MediaItem, type Usage } from "#domain/media.ts";
import { altSchema } from "#domain/media-alt.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

const PER_PAGE = 24;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "media");
  const url = new URL(request.url);
  const { items, page } = await context.services.media.list(url.searchParams.get("page"), PER_PAGE);
  const usages = await context.services.media.usagesByKey(items.map((i) => i.key));
  return { items, page, usages };
}

const idOnly = z.object({ id: z.string() });

export async function action({ request, context }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "media");
  const form = await request.formData();
  if (form.get("intent") === "delete") {
    return formAction(form, {
      schema: idOnly,
      run: ({ id }) => context.services.media.remove(id, viewer),
      success: "Image is deleted",
    });
  }
  return formAction(form, {
    schema: altSchema.extend({ id: z.string() }),
    run: ({ id, alt }) => context.services.media.setAlt(id, { alt }, viewer),
    success: "Alt text is saved",
  });
}

export const meta: Route.MetaFunction = () => [{ title: "Media library" }, { name: "robots", content: "noindex" }];

/** /media-library: every image of the site, newest first; upload, alt text, where each is used, delete. */
export default function MediaLibrary({ loaderData: { items, page, usages } }: Route.ComponentProps) {
  const [params] = useSearchParams();
  const revalidator = useRevalidator();
  const toast = useToast();
  // A plain form post (no JavaScript) comes back here with its outcome in the address.
  const outcome = params.get("error") ?? (params.get("uploaded") ? "The image is uploaded." : null);
  return (
    <>
      <AdminHeader
        title="Media library"
        lead="Images for every image field of the site. Each upload is resized once for phones and screens."
      />
      {outcome ? (
        <p role="status" className="mb-4 rounded-xl bg-white px-4 py-3 text-sm ring-1 ring-linen">
          {outcome}
        </p>
      ) : null}
      <UploadBox
        asForm
        onUploaded={() => {
          toast("success", "The image is uploaded.");
          void revalidator.revalidate();
        }}
      />
      {items.length === 0 ? (
        <p className="mt-8 text-sm text-mist">No images yet.</p>
      ) : (
        <ul className="mt-8 grid gap-6 sm:grid-cols-2 xl:grid-cols-3" data-testid="media-library">
          {items.map((item) => (
            <MediaCard key={item._id} item={item} usages={usages[item.key] ?? []} />
          ))}
        </ul>
      )}
      <div className="mt-6">
        <Pagination page={page} param="page" />
      </div>
    </>
  );
}

function MediaCard({ item, usages }: { item: MediaItem; usages: Usage[] }) {
  const altForm = useActionForm({ id: `alt:${item._id}`, defaultValue: { alt: item.alt } });
  const deleteForm = useActionForm({ id: `delete:${item._id}` });
  return (
    <li className="overflow-hidden rounded-2xl bg-white ring-1 ring-linen" data-testid="media-item">
      <a href={item.url} target="_blank" rel="noreferrer" className="block bg-sand">
        <MediaThumbnail item={item} className="aspect-[3/2] w-full object-contain" />
      </a>
      <div className="space-y-3 p-4 text-sm">
        <div>
          <p className="truncate font-semibold text-forest" title={item.fileName}>
            {item.fileName}
          </p>
          <p className="text-xs text-mist">
            {item.width} × {item.height} · {item.sourceFormat.toUpperCase()} {formatBytes(item.sourceBytes)} ·{" "}
            {item.svg ? "served as is" : `${item.widths.join(", ")} px${item.avif ? ", WebP and AVIF" : ", WebP"}`}
          </p>
        </div>
        <ActionForm handle={altForm} hidden={{ id: item._id }} className="flex items-end gap-2">
          <TextField label="Alt text" name="alt" className="min-w-0 flex-1" maxLength={300} />
          <button type="submit" className="btn-outline px-3 py-2 text-xs" disabled={altForm.busy}>
            Save
          </button>
        </ActionForm>
        {usages.length ? (
          <div className="text-xs text-mist" data-testid="media-usages">
            {/* The links are underlined: in a line of text, a link must not be told apart by its colour alone. */}
            Used by{" "}
            {usages.map((u, i) => (
              <span key={`${u.where}-${u.field}-${i}`}>
                {i ? ", " : ""}
                {u.edit ? (
                  <Link to={u.edit} className="text-clay underline underline-offset-2">
                    {u.where}
                  </Link>
                ) : (
                  u.where
                )}{" "}
                ({u.field})
              </span>
            ))}
          </div>
        ) : (
          <p className="text-xs text-mist">Not used on the site.</p>
        )}
        {/* Offered even when used: the refusal says where, so that the administrator knows what to change. */}
        <ActionForm
          handle={deleteForm}
          intent="delete"
          hidden={{ id: item._id }}
          onSubmit={(e) => {
            if (!window.confirm(`Delete ${item.fileName}?`)) e.preventDefault();
          }}
        >
          <button type="submit" className="text-xs text-red-700 hover:underline" disabled={deleteForm.busy}>
            Delete image
          </button>
        </ActionForm>
      </div>
    </li>
  );
}
