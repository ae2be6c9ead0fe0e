import { useContext } from "react";
import { parseMediaUrl, servedUrl, srcSet, type MediaInfo } from "#domain/media.ts";
// The images' context, provided by the root (a module of its own: the root loads none of this file's code).
import { MediaContext } from "./MediaProvider";

/** What the library knows of an image field's value: nothing for a typed URL or a shipped file. */
export function useMediaInfo(src: string | undefined): MediaInfo | undefined {
  const { media } = useContext(MediaContext);
  const parsed = parseMediaUrl(src);
  return parsed ? media[parsed.key] : undefined;
}

/** Where a shipped image is served for a year (its hashed copy); any other address as it is. */
function useServedUrl(src: string): string {
  return useContext(MediaContext).images[src] ?? src;
}

/** The fallback `src` for browsers without srcset: the largest WebP no wider than 960 px. */
const fallbackWidth = (info: MediaInfo) => [...info.widths].reverse().find((w) => w <= 960) ?? info.widths[0]!;

/**
 * An image field drawn on a public page. A library image comes with its srcset (WebP, and AVIF in a <picture> when
 * written), `sizes`, its real width and height (no layout shift), its alt text and its colour while it loads. A typed
 * URL is drawn as it was, in the box given. Below the fold it loads lazily; `priority` (the hero) loads first.
 */
export function ContentImage({
  src,
  sizes,
  width,
  height,
  alt = "",
  className,
  priority = false,
  lazy = !priority,
  testId,
}: {
  src: string;
  /** How wide the image is drawn, for the browser's choice of file (e.g. "(min-width: 1024px) 50vw, 100vw"). */
  sizes: string;
  /** The box of a typed URL (a library image brings its own). */
  width: number;
  height: number;
  /** Used when the library has no alt text for the image (or for a typed URL). */
  alt?: string;
  className?: string;
  priority?: boolean;
  /** Above the fold but not the hero (the header's logo): false. */
  lazy?: boolean;
  testId?: string;
}) {
  const info = useMediaInfo(src);
  const served = useServedUrl(src);
  const loading = lazy ? ("lazy" as const) : ("eager" as const);
  const common = {
    loading,
    decoding: "async" as const,
    fetchPriority: priority ? ("high" as const) : undefined,
    className,
    "data-testid": testId,
  };
  if (!info) return <img src={served} alt={alt} width={width} height={height} {...common} />;
  const shared = { ...common, width: info.width, height: info.height };
  const text = info.alt || alt;
  if (info.svg) return <img src={servedUrl(info, info.widths[0]!, "svg")} alt={text} {...shared} />;
  const img = (
    <img
      alt={text}
      src={servedUrl(info, fallbackWidth(info), "webp")}
      srcSet={srcSet(info, "webp")}
      sizes={sizes}
      style={{ backgroundColor: info.color }}
      {...shared}
    />
  );
  if (!info.avif) return img;
  return (
    <picture className="contents">
      <source type="image/avif" srcSet={srcSet(info, "avif")} sizes={sizes} />
      {img}
    </picture>
  );
}
