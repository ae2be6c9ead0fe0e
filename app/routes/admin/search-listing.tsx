import { data } from "react-router";
import type { Route } from "./+types/search-listing";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { describedBy, LengthHint } from "#app/components/admin/LengthHint.tsx";
import { SearchResultPreview } from "#app/components/admin/SearchResultPreview.tsx";
import { TextAreaField, TextField } from "#app/components/forms.tsx";
import { ImageField } from "#app/components/media/ImageField.tsx";
import { registryFormId } from "#app/components/RegistryForm.tsx";
import { descriptionHint, isSeoPage, pageSeo, searchPreview, SEO_PAGES, titleHint } from "#domain/page-seo.ts";
import { siteName } from "#domain/site.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { parseVideoId } from "#domain/video.ts";
import { contentAction } from "./content.server";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "content");
  const page = params.page;
  if (!isSeoPage(page)) throw data({ message: "Not found" }, { status: 404 });
  const { type, name, path } = SEO_PAGES[page];
  const snapshot = await context.services.content.snapshot();
  const record = snapshot[type][0];
  // What the page shows with every field empty: the placeholders, and the preview of an empty field.
  const defaults = pageSeo(
    page,
    { ...snapshot, [type]: [] },
    { siteName: siteName(snapshot), isImage: (href) => !parseVideoId(href) },
  );
  return {
    page,
    type,
    name,
    url: context.config.publicUrl + path,
    record: record ?? null,
    defaults: { title: defaults.title.value, description: defaults.description.value, image: defaults.image.value },
    // The library image the share image field shows (its preview).
    media: await context.services.media.describe(record ?? {}),
  };
}

/** The content screens' one action: add or update the page's listing record (audited, the public pages follow). */
export const action = ({ request, context }: Route.ActionArgs) => contentAction(request, context);

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Search listing: ${data.name}` : "Search listing" },
  { name: "robots", content: "noindex" },
];

/** One page's title, meta description and share image, with a preview of its search result and length hints. */
export default function SearchListing({ loaderData }: Route.ComponentProps) {
  const { type, name, url, record, defaults } = loaderData;
  const intent = record ? "update" : "add";
  const form = useActionForm({
    id: registryFormId(intent, type, record?._id),
    defaultValue: record ?? undefined,
    live: true,
  });
  // What is typed (a live form follows each keystroke); before the browser takes over, what is saved.
  const typedTitle = String(form.fields.seoTitle?.value ?? record?.seoTitle ?? "");
  const typedDescription = String(form.fields.seoDescription?.value ?? record?.seoDescription ?? "");
  const preview = searchPreview(
    {
      title: { value: typedTitle.trim() || defaults.title, custom: false },
      description: { value: typedDescription.trim() || defaults.description, custom: false },
    },
    url,
  );
  return (
    <>
      <AdminHeader
        title={`Search listing: ${name}`}
        lead="What search results and shared links show of this page. Leave a field empty to use the page's own text."
        back={{ to: "/search-listings", label: "Search listings" }}
      />
      <div className="grid gap-6 lg:grid-cols-[minmax(0,3fr)_minmax(0,2fr)] lg:items-start">
        <div className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
          <ActionForm
            handle={form}
            intent={intent}
            hidden={{ type, ...(record ? { id: record._id } : {}) }}
            className="grid gap-5"
            testId="form-search-listing"
          >
            <div>
              <TextField
                label="Page title (optional)"
                name="seoTitle"
                placeholder={defaults.title}
                aria-describedby={describedBy(form.fields.seoTitle, "seoTitle-hint")}
              />
              <LengthHint id="seoTitle-hint" hint={titleHint(typedTitle)} />
            </div>
            <div>
              <TextAreaField
                label="Meta description (optional)"
                name="seoDescription"
                placeholder={defaults.description}
                rows={4}
                aria-describedby={describedBy(form.fields.seoDescription, "seoDescription-hint")}
              />
              <LengthHint id="seoDescription-hint" hint={descriptionHint(typedDescription)} />
            </div>
            <div>
              <ImageField label="Share image (optional)" name="shareImage" required={false} kind="image" />
              <p className="mt-2 text-sm text-mist">
                {defaults.image
                  ? "Empty: links shared on social networks show the page's own image."
                  : "Empty: links shared on social networks show text only."}{" "}
                A wide image works best (1200 × 630 pixels).
              </p>
            </div>
            <div>
              <button type="submit" className="btn-primary" disabled={form.busy}>
                {form.busy ? "Saving…" : "Save search listing"}
              </button>
            </div>
          </ActionForm>
        </div>
        <section aria-labelledby="preview-heading" className="rounded-2xl bg-white p-6 ring-1 ring-linen sm:p-8">
          <h2 id="preview-heading" className="font-serif text-xl text-forest">
            In search results
          </h2>
          <div className="mt-4">
            <SearchResultPreview {...preview} />
          </div>
        </section>
      </div>
    </>
  );
}
