import { lazy, Suspense, useState, useSyncExternalStore } from "react";
import { ARTICLE_ACCESS, ARTICLE_ACCESS_LABEL, ARTICLE_STATE_LABEL, type ArticleState } from "#domain/articles.ts";
import { dateTime } from "#domain/dates.ts";
import { descriptionHint, titleHint } from "#domain/page-seo.ts";
import { ActionForm, useActionForm, type ActionFormHandle } from "../ActionForm";
import { SelectField, TextAreaField, TextField } from "../forms";
import { ImageField } from "../media/ImageField";
import { describedBy, LengthHint } from "./LengthHint";

// Tiptap loads with this screen only, and only once the page runs: without JavaScript the body is a plain textarea of
// its HTML (the server cleans it either way).
const RichTextEditor = lazy(() => import("../editor/RichTextEditor"));

/** What the form starts with: the saved article, or a new one's blanks. */
export interface ArticleFormValues {
  title: string;
  slug: string;
  excerpt: string;
  coverImage: string;
  bodyHtml: string;
  access: string;
  tags: string;
  authorId: string;
  seoTitle: string;
  seoDescription: string;
  seoImage: string;
  publishAt: string;
}

export const EMPTY_ARTICLE: ArticleFormValues = {
  title: "",
  slug: "",
  excerpt: "",
  coverImage: "",
  bodyHtml: "",
  access: "public",
  tags: "",
  authorId: "",
  seoTitle: "",
  seoDescription: "",
  seoImage: "",
  publishAt: "",
};

const noSubscription = () => () => {};

/** The body's field: the editor once the page runs, its HTML in a textarea before (and without JavaScript). */
function BodyField({ initialHtml, error, errorId }: { initialHtml: string; error?: string; errorId: string }) {
  // True once the page runs in the browser (false in the server's HTML and during hydration).
  const running = useSyncExternalStore(
    noSubscription,
    () => true,
    () => false,
  );
  const textarea = (
    <textarea
      id="article-body"
      name="bodyHtml"
      defaultValue={initialHtml}
      rows={16}
      className="field-input font-mono text-sm"
      aria-describedby={`article-body-help${error ? ` ${errorId}` : ""}`}
      aria-invalid={error ? true : undefined}
    />
  );
  return (
    <div>
      <label id="article-body-label" htmlFor="article-body" className="field-label">
        Body
      </label>
      <p id="article-body-help" className="mb-2 text-sm text-mist">
        Headings, lists, links, quotes, code, images from the library and YouTube videos. For a members-only part, place
        “Members only below this line” where it starts.
      </p>
      {running ? (
        <Suspense fallback={textarea}>
          <RichTextEditor
            name="bodyHtml"
            initialHtml={initialHtml}
            labelId="article-body-label"
            describedBy={`article-body-help${error ? ` ${errorId}` : ""}`}
          />
        </Suspense>
      ) : (
        textarea
      )}
      {error ? (
        <p id={errorId} className="field-error">
          {error}
        </p>
      ) : null}
    </div>
  );
}

/** The search listing's title, description and share image, with the length hints of the pages' own. */
function SearchListing({ values, fields }: { values: ArticleFormValues; fields: ActionFormHandle["fields"] }) {
  const [seoTitle, setSeoTitle] = useState(values.seoTitle);
  const [seoDescription, setSeoDescription] = useState(values.seoDescription);
  return (
    <section
      className="grid gap-5 rounded-2xl bg-white p-5 ring-1 ring-linen sm:p-8"
      aria-labelledby="article-seo-heading"
    >
      <h2 id="article-seo-heading" className="font-serif text-xl text-forest">
        Search listing
      </h2>
      <div>
        <TextField
          label="Title in search results (optional)"
          name="seoTitle"
          placeholder="The article's title"
          onInput={(e) => setSeoTitle(e.currentTarget.value)}
          aria-describedby={describedBy(fields.seoTitle, "article-seoTitle-hint")}
        />
        <LengthHint id="article-seoTitle-hint" hint={titleHint(seoTitle)} />
      </div>
      <div>
        <TextAreaField
          label="Meta description (optional)"
          name="seoDescription"
          placeholder="The excerpt"
          rows={3}
          onInput={(e) => setSeoDescription(e.currentTarget.value)}
          aria-describedby={describedBy(fields.seoDescription, "article-seoDescription-hint")}
        />
        <LengthHint id="article-seoDescription-hint" hint={descriptionHint(seoDescription)} />
      </div>
      <div>
        <ImageField label="Share image (optional)" name="seoImage" required={false} kind="image" />
        <p className="mt-2 text-sm text-mist">
          Empty: shared links show the cover image. A wide image works best (1200 × 630 pixels).
        </p>
      </div>
    </section>
  );
}

/** Where the article stands, the time to schedule it at, and the buttons its state allows. */
function Publishing({
  state,
  publishAt,
  timeZone,
  isNew,
  busy,
}: {
  state: ArticleState;
  publishAt: string | null;
  timeZone: string;
  isNew: boolean;
  busy: boolean;
}) {
  const published = state === "published";
  const button = "px-5 py-2.5 text-sm";
  return (
    <section
      className="grid gap-4 rounded-2xl bg-white p-5 ring-1 ring-linen sm:p-8"
      aria-labelledby="article-state-heading"
    >
      <h2 id="article-state-heading" className="font-serif text-xl text-forest">
        Publishing
      </h2>
      <p className="text-sm text-ink" data-testid="article-state">
        {isNew
          ? "Not saved yet."
          : state === "scheduled" && publishAt
            ? `Scheduled: goes out ${dateTime(publishAt, timeZone)}.`
            : `${ARTICLE_STATE_LABEL[state]}.`}
      </p>
      {!published ? (
        <div className="max-w-xs">
          <TextField
            label={`Publish at (${timeZone} time)`}
            name="publishAt"
            type="datetime-local"
            aria-describedby="article-publishAt-help"
          />
          <p id="article-publishAt-help" className="mt-2 text-sm text-mist">
            For “Schedule”: a day and time to come.
          </p>
        </div>
      ) : null}
      <div className="flex flex-wrap gap-3">
        {publishingButtons(state, isNew).map(({ intent, label, primary, saves }) => (
          <button
            key={`${intent}-${label}`}
            type="submit"
            name="intent"
            value={intent}
            className={`${primary ? "btn-primary" : "btn-outline"} ${button}`}
            disabled={busy}
          >
            {saves && busy ? "Saving…" : label}
          </button>
        ))}
      </div>
    </section>
  );
}

/**
 * The article's form (/articles/new and /articles/:id): its fields, the search listing with the length hints of the
 * pages' own, and the state buttons the article's state allows (each saves the fields too).
 */
export function ArticleForm({
  formId,
  values,
  state,
  publishAt,
  authors,
  timeZone,
  isNew,
}: {
  formId: string;
  values: ArticleFormValues;
  state: ArticleState;
  /** When a scheduled article goes out. */
  publishAt: string | null;
  authors: { id: string; name: string }[];
  timeZone: string;
  isNew: boolean;
}) {
  const form = useActionForm({ id: formId, defaultValue: values });
  const body = form.fields.bodyHtml;
  return (
    <ActionForm handle={form} encType="multipart/form-data" className="grid gap-6" testId="article-form">
      <section className="grid gap-5 rounded-2xl bg-white p-5 ring-1 ring-linen sm:p-8" aria-label="The article">
        <TextField label="Title" name="title" required maxLength={200} />
        <div>
          <TextField
            label="Address"
            name="slug"
            maxLength={200}
            placeholder="made from the title"
            aria-describedby="article-slug-help"
          />
          <p id="article-slug-help" className="mt-2 text-sm text-mist">
            /blog/… Lowercase words joined by hyphens. Changing it later keeps the old address leading here.
          </p>
        </div>
        <TextAreaField label="Excerpt (shown in lists and under the title)" name="excerpt" rows={3} maxLength={500} />
        <ImageField label="Cover image (optional)" name="coverImage" required={false} kind="image" />
        <BodyField initialHtml={values.bodyHtml} error={body?.errors?.[0]} errorId={body?.errorId ?? "body-error"} />
        <SelectField
          label="Who may read it"
          name="access"
          placeholder="Choose"
          options={ARTICLE_ACCESS.map((a) => ({ value: a, label: ARTICLE_ACCESS_LABEL[a] }))}
        />
        <div className="grid gap-5 sm:grid-cols-2">
          <TextField label="Tags (separated by commas)" name="tags" placeholder="Interiors, SEO" />
          <SelectField
            label="Author"
            name="authorId"
            placeholder={isNew ? "You" : "As printed now"}
            options={authors.map((a) => ({ value: a.id, label: a.name }))}
          />
        </div>
      </section>

      <SearchListing values={values} fields={form.fields} />

      <Publishing state={state} publishAt={publishAt} timeZone={timeZone} isNew={isNew} busy={form.busy} />
    </ActionForm>
  );
}

/** A button of the publishing box: the intent it posts, its words, and whether it is the screen's main one. */
interface PublishingButton {
  intent: "save" | "draft" | "unpublish" | "schedule" | "publish";
  label: string;
  primary?: boolean;
  /** It saves the article as it stands (its words become "Saving…" while the form is sent). */
  saves?: boolean;
}

/**
 * The buttons an article's state offers: a published one is saved or unpublished; a scheduled one saved, sent back to
 * draft, rescheduled or published now; a draft (or an unpublished one, which "Save draft" makes a draft again) saved,
 * scheduled or published now.
 */
function publishingButtons(state: ArticleState, isNew: boolean): PublishingButton[] {
  if (state === "published")
    return [
      { intent: "save", label: "Save", primary: true, saves: true },
      { intent: "unpublish", label: "Unpublish" },
    ];
  const keep: PublishingButton[] =
    state === "scheduled"
      ? [
          { intent: "save", label: "Save", saves: true },
          { intent: "draft", label: "Back to draft" },
        ]
      : [{ intent: state === "draft" || isNew ? "save" : "draft", label: "Save draft", saves: true }];
  return [
    ...keep,
    { intent: "schedule", label: "Schedule" },
    { intent: "publish", label: "Publish now", primary: true },
  ];
}

/** The form's values from a saved article (the schedule's time in the site's zone, for the datetime-local field). */
export function articleFormValues(
  a: {
    title: string;
    slug: string;
    excerpt: string;
    coverImage: string;
    bodyHtml: string;
    access: string;
    tags: string[];
    authorId: string | null;
    seoTitle: string;
    seoDescription: string;
    seoImage: string;
  },
  publishAt: string,
): ArticleFormValues {
  return { ...a, tags: a.tags.join(", "), authorId: a.authorId ?? "", publishAt };
}
