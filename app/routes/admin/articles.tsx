import { Link } from "react-router";
import type { Route } from "./+types/articles";
import { ARTICLE_ACCESS_LABEL, ARTICLE_STATE_LABEL, ARTICLE_STATES, type ArticleState } from "#domain/articles.ts";
import { dateTime } from "#domain/dates.ts";
import { STATE_TONE } from "#app/components/admin/article-state.ts";
import { Badge, DataTable, type Column } from "#app/components/DataTable.tsx";
import { requireStaff } from "#app/lib/guards.server.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

const PER_PAGE = 20;

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "content");
  const params = new URL(request.url).searchParams;
  const wanted = params.get("state") ?? "";
  const state = (ARTICLE_STATES as readonly string[]).includes(wanted) ? (wanted as ArticleState) : undefined;
  const { articles, page } = await context.services.articles.list({
    page: params.get("page") ?? undefined,
    perPage: PER_PAGE,
    state,
  });
  return { articles, page, state: state ?? null, timeZone: context.config.timeZone };
}

export const meta: Route.MetaFunction = () => [{ title: "Articles" }, { name: "robots", content: "noindex" }];

/** /articles: every article, last changed first (paged on the server), by state; "New article" opens the editor. */
export default function Articles({ loaderData: { articles, page, state, timeZone } }: Route.ComponentProps) {
  const filters: { value: ArticleState | null; label: string }[] = [
    { value: null, label: "All" },
    ...ARTICLE_STATES.map((s) => ({ value: s, label: ARTICLE_STATE_LABEL[s] })),
  ];
  return (
    <>
      <AdminHeader
        title="Articles"
        lead="The blog: write, schedule and publish articles, for everyone or with a part for members."
        actions={
          <Link to="/articles/new" className="btn-primary px-5 py-2.5 text-sm" data-testid="new-article">
            New article
          </Link>
        }
      />
      <nav aria-label="Articles by state" className="mb-6 flex flex-wrap gap-2">
        {filters.map((f) => {
          const current = f.value === state;
          return (
            <Link
              key={f.label}
              to={f.value ? `/articles?state=${f.value}` : "/articles"}
              aria-current={current ? "page" : undefined}
              className={`rounded-full px-4 py-1.5 text-sm ring-1 ${current ? "bg-forest text-white ring-forest" : "text-forest ring-linen hover:bg-sand"}`}
            >
              {f.label}
            </Link>
          );
        })}
      </nav>
      <DataTable
        caption="Articles"
        testId="articles"
        rows={articles}
        rowKey={(a) => a.id}
        page={page}
        empty={
          state ? `No ${ARTICLE_STATE_LABEL[state].toLowerCase()} article.` : "No article yet: write the first one."
        }
        columns={articleColumns(timeZone)}
      />
    </>
  );
}

type ArticleRow = Route.ComponentProps["loaderData"]["articles"][number];

function articleColumns(timeZone: string): Column<ArticleRow>[] {
  return [
    {
      header: "Title",
      typed: true,
      cell: (a) => (
        <span>
          <Link to={`/articles/${a.id}`} className="font-semibold text-forest hover:text-clay">
            {a.title}
          </Link>
          <span className="block text-xs text-mist">
            /blog/{a.slug} · {ARTICLE_ACCESS_LABEL[a.access]}
          </span>
        </span>
      ),
    },
    { header: "State", cell: (a) => <Badge tone={STATE_TONE[a.state]}>{ARTICLE_STATE_LABEL[a.state]}</Badge> },
    {
      header: "Date",
      cell: (a) => (
        <span className="whitespace-nowrap">
          {a.state === "scheduled" && a.publishAt
            ? `Goes out ${dateTime(a.publishAt, timeZone)}`
            : a.publishedAt
              ? `Published ${dateTime(a.publishedAt, timeZone)}`
              : `Changed ${dateTime(a.updatedAt, timeZone)}`}
        </span>
      ),
    },
    { header: "Author", typed: true, cell: (a) => a.authorName },
    { header: "Tags", typed: true, cell: (a) => a.tags.join(", ") },
    {
      header: "Actions",
      pinned: true,
      cell: (a) => (
        <Link to={`/articles/${a.id}`} className="btn-outline px-4 py-2 text-xs">
          Edit<span className="sr-only"> {a.title}</span>
        </Link>
      ),
    },
  ];
}
