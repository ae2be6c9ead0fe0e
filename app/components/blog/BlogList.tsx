import { Link } from "react-router";
import type { PageInfo } from "#domain/pagination.ts";
import type { BlogCard } from "#server/services/blog.ts";
import { PageHeader } from "../sections/PageHeader";
import { ArticleCard } from "./ArticleCard";

/** The address of page `n` of a list at `path` (its first page is the list's own address). */
export const listPage = (path: string, n: number) => (n <= 1 ? path : `${path}?page=${n}`);

/** A list of articles (/blog, a tag's): its title band, the cards, newest first, and links to newer and older pages. */
export function BlogList({
  title,
  lead,
  trail,
  path,
  articles,
  page,
  timeZone,
}: {
  title: string;
  lead?: string;
  /** The pages above this list in the breadcrumb (a tag's list: the blog). */
  trail?: readonly { label: string; to: string }[];
  path: string;
  articles: BlogCard[];
  page: PageInfo;
  timeZone: string;
}) {
  return (
    <>
      <PageHeader title={title} lead={lead} trail={trail} />
      <section className="container-page py-12 sm:py-16">
        {articles.length ? (
          <div className="grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
            {articles.map((a, i) => (
              <ArticleCard key={a.id} card={a} timeZone={timeZone} first={i === 0} />
            ))}
          </div>
        ) : (
          <p className="text-lg text-mist">Nothing has been published here yet. Please come back soon.</p>
        )}
        {page.pages > 1 ? (
          <nav aria-label="Pages" className="mt-12 flex items-center justify-between gap-4 text-forest">
            {page.page > 1 ? (
              <Link to={listPage(path, page.page - 1)} rel="prev" className="btn-outline px-5 py-2.5">
                Newer articles
              </Link>
            ) : (
              <span />
            )}
            <p className="text-sm text-mist">
              Page {page.page} of {page.pages}
            </p>
            {page.page < page.pages ? (
              <Link to={listPage(path, page.page + 1)} rel="next" className="btn-outline px-5 py-2.5">
                Older articles
              </Link>
            ) : (
              <span />
            )}
          </nav>
        ) : null}
      </section>
    </>
  );
}
