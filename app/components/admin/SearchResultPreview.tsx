/**
 * A search result as people see it: the address, the title (cut at about 60 characters) and the description (cut at
 * about 155), already cut by domain/page-seo.ts searchPreview. Shown on the search listings screens.
 */
export function SearchResultPreview({ url, title, description }: { url: string; title: string; description: string }) {
  return (
    <figure className="rounded-xl bg-sand/60 p-4 ring-1 ring-linen" data-testid="search-preview">
      <figcaption className="sr-only">Search result preview</figcaption>
      <p className="truncate text-xs text-ink" data-testid="preview-url">
        {url}
      </p>
      <p className="mt-1 text-lg leading-snug [overflow-wrap:anywhere] text-[#1a0dab]" data-testid="preview-title">
        {title}
      </p>
      <p className="mt-1 text-sm leading-relaxed [overflow-wrap:anywhere] text-ink" data-testid="preview-description">
        {description}
      </p>
    </figure>
  );
}
