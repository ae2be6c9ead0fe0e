import { Link, redirect, useLocation, useNavigate, useSearchParams } from "react-router";
import type { Route } from "./+types/article-edit";
import { articleInputSchema } from "#domain/article-edits.ts";
import { ARTICLE_STATE_LABEL } from "#domain/articles.ts";
import { dateTime } from "#domain/dates.ts";
import { toZonedInput } from "#domain/zoned-time.ts";
import { ActionForm, useActionForm } from "#app/components/ActionForm.tsx";
import { ArticleForm, articleFormValues } from "#app/components/admin/ArticleForm.tsx";
import { STATE_TONE } from "#app/components/admin/article-state.ts";
import { OpenDialogButton } from "#app/components/admin/OpenDialogButton.tsx";
import { Badge } from "#app/components/DataTable.tsx";
import { DangerButton } from "#app/components/forms.tsx";
import { Modal } from "#app/components/Modal.tsx";
import { formAction } from "#app/lib/form.server.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

export async function loader({ request, context, params }: Route.LoaderArgs) {
  await requireStaff(request, context, "content");
  const { articles, media } = context.services;
  const [article, versions, authors] = await Promise.all([
    articles.get(params.id),
    articles.versions(params.id),
    articles.authors(),
  ]);
  return {
    article,
    versions,
    authors,
    timeZone: context.config.timeZone,
    // The cover and share images' previews.
    media: await media.describe({ coverImage: article.coverImage, seoImage: article.seoImage }),
  };
}

/** Save (with the state its button says), restore a version, or delete to the trash. */
export async function action({ request, context, params }: Route.ActionArgs) {
  const viewer = await requireStaff(request, context, "content");
  const { articles } = context.services;
  const form = await request.formData();
  const intent = form.get("intent");
  if (intent === "delete")
    return formAction(form, {
      run: async () => {
        await articles.remove(params.id, viewer);
        throw redirect("/articles");
      },
    });
  if (intent === "restore")
    return formAction(form, {
      run: () => articles.restoreVersion(params.id, form.get("version"), viewer),
      success: (r) =>
        r.modified ? `Restored: the article is now version ${r.version}` : "The article has these values already",
    });
  return formAction(form, {
    schema: articleInputSchema,
    run: (value) => articles.update(params.id, value, viewer),
    success: (r) => (r.modified ? "Article is saved" : "Nothing changed"),
  });
}

export const meta: Route.MetaFunction = ({ data }) => [
  { title: data ? `Article: ${data.article.title}` : "Article" },
  { name: "robots", content: "noindex" },
];

/** /articles/:id: the article's form, previews as a visitor and as a member, its history, and delete. */
export default function ArticleEdit({ loaderData }: Route.ComponentProps) {
  const { article, versions, authors, timeZone } = loaderData;
  const [params] = useSearchParams();
  const { pathname } = useLocation();
  const navigate = useNavigate();
  // The dialogs are the address's (?delete, ?restore=N): opening or closing one replaces it, and nothing waits on that.
  const close = () => void navigate(pathname, { replace: true, preventScrollReset: true });
  const open = (name: string, value: string) =>
    void navigate(`${pathname}?${name}=${encodeURIComponent(value)}`, { replace: true, preventScrollReset: true });
  const restoring = versions.find((v) => String(v.version) === params.get("restore"));
  return (
    <>
      <AdminHeader
        title={article.title}
        lead={
          <>
            <Badge tone={STATE_TONE[article.state]}>{ARTICLE_STATE_LABEL[article.state]}</Badge> /blog/{article.slug} ·
            version {article.version}
            {article.oldSlugs.length
              ? ` · earlier addresses lead here: ${article.oldSlugs.map((s) => `/blog/${s}`).join(", ")}`
              : ""}
          </>
        }
        back={{ to: "/articles", label: "Articles" }}
        actions={<PreviewLinks id={article.id} />}
      />
      <ArticleForm
        // A new version (a restore) starts the form again from the saved values.
        key={article.version}
        formId="article-edit"
        values={articleFormValues(article, article.publishAt ? toZonedInput(article.publishAt, timeZone) : "")}
        state={article.state}
        publishAt={article.publishAt}
        authors={authors}
        timeZone={timeZone}
        isNew={false}
      />

      <History versions={versions} current={article.version} timeZone={timeZone} open={open} />

      <DeleteSection open={open} />

      <Modal open={params.has("delete")} onClose={close} title="Delete this article?" testId="delete-article-dialog">
        {params.has("delete") ? <ConfirmDelete title={article.title} onDone={close} /> : null}
      </Modal>
      <Modal
        open={restoring !== undefined}
        onClose={close}
        title={`Restore version ${restoring?.version ?? ""}?`}
        testId="restore-version-dialog"
      >
        {restoring ? <ConfirmRestore version={restoring.version} current={article.version} onDone={close} /> : null}
      </Modal>
    </>
  );
}

type Version = Route.ComponentProps["loaderData"]["versions"][number];
/** Opens one of the page's dialogs (?delete, ?restore=N). */
type OpenDialog = (name: string, value: string) => void;

function PreviewLinks({ id }: { id: string }) {
  return (
    <>
      {(["visitor", "member"] as const).map((as) => (
        <a
          key={as}
          href={`/blog/preview/${id}?as=${as}`}
          target="_blank"
          rel="noopener"
          className="btn-outline px-4 py-2 text-sm"
        >
          {`Preview as a ${as}`}
        </a>
      ))}
    </>
  );
}

/** Every saved version, each (but the current one) with its Restore button. */
function History({
  versions,
  current,
  timeZone,
  open,
}: {
  versions: Version[];
  current: number;
  timeZone: string;
  open: OpenDialog;
}) {
  return (
    <section className="mt-6 rounded-2xl bg-white p-5 ring-1 ring-linen sm:p-8" aria-labelledby="history-heading">
      <h2 id="history-heading" className="font-serif text-xl text-forest">
        History
      </h2>
      <p className="mt-1 text-sm text-mist">
        Every save is a version. Restoring one writes it back as a new version: nothing is lost, and the state stays.
      </p>
      <ol className="mt-4 divide-y divide-linen" data-testid="article-history">
        {versions.map((v) => (
          <li key={v.version} className="flex flex-wrap items-center justify-between gap-3 py-3 text-sm">
            <span>
              <strong>Version {v.version}</strong> · {dateTime(v.savedAt, timeZone)} · {v.savedBy}
              <span className="block text-mist">{v.title}</span>
            </span>
            {v.version === current ? (
              <span className="text-mist">Current</span>
            ) : (
              <OpenDialogButton
                name="restore"
                value={String(v.version)}
                onOpen={() => open("restore", String(v.version))}
                className="btn-outline px-3 py-1.5 text-xs"
              >
                Restore this version<span className="sr-only"> (number {v.version})</span>
              </OpenDialogButton>
            )}
          </li>
        ))}
      </ol>
    </section>
  );
}

function DeleteSection({ open }: { open: OpenDialog }) {
  return (
    <section className="mt-6 rounded-2xl bg-white p-5 ring-1 ring-linen sm:p-8" aria-labelledby="delete-heading">
      <h2 id="delete-heading" className="font-serif text-xl text-forest">
        Delete
      </h2>
      <p className="mt-1 text-sm text-mist">The article leaves the site at once and stays in the trash for 30 days.</p>
      <div className="mt-4">
        <OpenDialogButton
          name="delete"
          value="1"
          onOpen={() => open("delete", "1")}
          className="rounded-full px-4 py-2 text-sm font-semibold text-red-800 ring-1 ring-red-200 hover:bg-red-50"
        >
          Delete article
        </OpenDialogButton>
      </div>
    </section>
  );
}

function ConfirmDelete({ title, onDone }: { title: string; onDone: () => void }) {
  const form = useActionForm({ id: "article-delete" });
  const { pathname } = useLocation();
  return (
    <ActionForm handle={form} intent="delete">
      <p className="text-sm text-ink">
        <strong>“{title}”</strong> will be removed from the site at once. It stays in the{" "}
        <Link to="/trash" className="font-semibold text-clay underline underline-offset-2">
          trash
        </Link>{" "}
        for 30 days, with its history, where it can be restored.
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Link to={pathname} replace preventScrollReset onClick={onDone} className="btn-outline px-5 py-2 text-sm">
          Cancel
        </Link>
        <DangerButton busy={form.busy} busyLabel="Deleting…" compact testId="confirm-delete-article">
          Delete
        </DangerButton>
      </div>
    </ActionForm>
  );
}

function ConfirmRestore({ version, current, onDone }: { version: number; current: number; onDone: () => void }) {
  const form = useActionForm({ id: "article-restore", onSuccess: onDone });
  const { pathname } = useLocation();
  return (
    <ActionForm handle={form} intent="restore" hidden={{ version: String(version) }}>
      <p className="text-sm text-ink">
        The article's fields as they were in version {version} become version {current + 1}. Whether it is published
        does not change. Unsaved changes in the form are lost.
      </p>
      <div className="mt-6 flex flex-wrap justify-end gap-3">
        <Link to={pathname} replace preventScrollReset onClick={onDone} className="btn-outline px-5 py-2 text-sm">
          Cancel
        </Link>
        <button
          type="submit"
          className="btn-primary px-5 py-2 text-sm"
          disabled={form.busy}
          data-testid="confirm-restore"
        >
          {form.busy ? "Restoring…" : "Restore this version"}
        </button>
      </div>
    </ActionForm>
  );
}
