import { useRouteLoaderData } from "react-router";
import { blogPosting, jsonLdText } from "#domain/structured-data.ts";
import type { BlogArticle, BlogCard } from "#server/services/blog.ts";
import { ContentImage } from "../media/ContentImage";
import { Breadcrumb } from "../sections/PageHeader";
import { ArticleBody } from "./ArticleBody";
import { ArticleCard, ArticleDateLine, ArticleTags } from "./ArticleCard";

const BLOG_TRAIL = [{ label: "Blog", to: "/blog" }];

/** The breadcrumb, the title and excerpt, the author and the date line. */
function ArticleHeader({ article, timeZone }: { article: BlogArticle; timeZone: string }) {
  return (
    <header className="bg-sand">
      <div className="mx-auto w-full max-w-3xl px-5 py-12 sm:px-8 sm:py-16">
        <Breadcrumb trail={BLOG_TRAIL} />
        <h1 className="mt-4 text-4xl leading-tight text-forest sm:text-5xl">{article.title}</h1>
        {article.excerpt ? <p className="section-lead">{article.excerpt}</p> : null}
        <div className="mt-6 flex flex-wrap items-center gap-x-4 gap-y-2">
          {article.authorName ? <p className="text-sm font-medium text-forest">{`By ${article.authorName}`}</p> : null}
          <ArticleDateLine card={article} timeZone={timeZone} />
        </div>
      </div>
    </header>
  );
}

/** Other articles to read next, as cards. */
function RelatedArticles({ related, timeZone }: { related: BlogCard[]; timeZone: string }) {
  return (
    <section aria-labelledby="related-heading" className="bg-sand/60 py-14">
      <div className="container-page">
        <h2 id="related-heading" className="text-3xl text-forest">
          Related articles
        </h2>
        <div className="mt-8 grid gap-8 sm:grid-cols-2 lg:grid-cols-3">
          {related.map((r) => (
            <ArticleCard key={r.id} card={r} timeZone={timeZone} headingLevel={3} />
          ))}
        </div>
      </div>
    </section>
  );
}

/**
 * An article's page (/blog/{slug}, and the staff preview, which draws the same): breadcrumb, title, author, date and
 * reading time, cover, the body as this reader may read it with its call to action, tags, related articles, and its
 * BlogPosting data for search engines.
 */
export function ArticlePage({
  article,
  related,
  timeZone,
}: {
  article: BlogArticle;
  related: BlogCard[];
  timeZone: string;
}) {
  const root = useRouteLoaderData<{ publicUrl: string }>("root");
  const structured = root
    ? blogPosting({
        path: `/blog/${article.slug}`,
        title: article.title,
        description: article.seoDescription.trim() || article.excerpt,
        image: article.seoImage || article.coverImage || undefined,
        publishedAt: article.publishedAt,
        updatedAt: article.updatedAt,
        authorName: article.authorName,
        tags: article.tags.map((t) => t.name),
        membersOnly: article.access !== "public",
        publicUrl: root.publicUrl,
      })
    : null;
  return (
    <>
      {structured ? (
        <script
          type="application/ld+json"
          data-testid="structured-data"
          dangerouslySetInnerHTML={{ __html: jsonLdText(structured) }}
        />
      ) : null}
      <article className="pb-16">
        <ArticleHeader article={article} timeZone={timeZone} />
        <div className="mx-auto w-full max-w-3xl px-5 sm:px-8">
          {article.coverImage ? (
            <ContentImage
              src={article.coverImage}
              sizes="(min-width: 768px) 704px, 92vw"
              width={1200}
              height={675}
              priority
              alt=""
              className="mt-10 aspect-video w-full rounded-3xl object-cover"
            />
          ) : null}
          <div className="mt-10">
            <ArticleBody html={article.html} locked={article.locked} />
          </div>
          <div className="mt-10">
            <ArticleTags card={article} />
          </div>
        </div>
      </article>
      {related.length ? <RelatedArticles related={related} timeZone={timeZone} /> : null}
    </>
  );
}
