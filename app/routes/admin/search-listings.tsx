import { Link } from "react-router";
import type { Route } from "./+types/search-listings";
import { SearchResultPreview } from "#app/components/admin/SearchResultPreview.tsx";
import { allPageSeo, searchPreview, SEO_PAGES } from "#domain/page-seo.ts";
import { siteName } from "#domain/site.ts";
import { requireStaff } from "#app/lib/guards.server.ts";
import { parseVideoId } from "#domain/video.ts";
import { AdminHeader } from "#app/components/admin/AdminHeader.tsx";

export async function loader({ request, context }: Route.LoaderArgs) {
  await requireStaff(request, context, "content");
  const snapshot = await context.services.content.snapshot();
  const listings = allPageSeo(snapshot, { siteName: siteName(snapshot), isImage: (href) => !parseVideoId(href) });
  return {
    pages: listings.map((l) => ({
      page: l.page,
      name: SEO_PAGES[l.page].name,
      preview: searchPreview(l, context.config.publicUrl + l.path),
      custom: l.title.custom || l.description.custom || l.image.custom,
      hasImage: l.image.value !== "",
    })),
  };
}

export const meta: Route.MetaFunction = () => [{ title: "Search listings" }, { name: "robots", content: "noindex" }];

/** Every public page's search listing as results show it, each with a link to its edit screen. */
export default function SearchListings({ loaderData }: Route.ComponentProps) {
  return (
    <>
      <AdminHeader
        title="Search listings"
        lead="How each page shows in search results and when shared. Empty fields take the page's own text."
      />
      <ul className="grid gap-5 lg:grid-cols-2">
        {loaderData.pages.map((p) => (
          <li
            key={p.page}
            className="flex flex-col gap-4 rounded-2xl bg-white p-6 ring-1 ring-linen"
            data-testid={`listing-${p.page}`}
          >
            <div className="flex flex-wrap items-center justify-between gap-3">
              <h2 className="font-serif text-xl text-forest">{p.name}</h2>
              <Link to={`/search-listings/${p.page}`} className="btn-dark px-4 py-2 text-xs">
                Edit<span className="sr-only"> {p.name}</span>
              </Link>
            </div>
            <SearchResultPreview {...p.preview} />
            <p className="text-sm text-mist">
              {p.custom ? "Written for search." : "From the page's content."}{" "}
              {p.hasImage ? "Has a share image." : "No share image: shared links show text only."}
            </p>
          </li>
        ))}
      </ul>
    </>
  );
}
