import { createContext, useMemo, type ReactNode } from "react";
import type { MediaInfo } from "#domain/media.ts";

/**
 * The library images the current pages use, by key (each route's loader returns `media`; the root merges them), and
 * the shipped images they name (`/images/x.svg`) with their hashed, year-cached addresses (the root's loader). A module
 * of its own: the root provides it on every page, and the code that draws images (./ContentImage.tsx) loads only on
 * the pages that draw some.
 */
export const MediaContext = createContext<{ media: Record<string, MediaInfo>; images: Record<string, string> }>({
  media: {},
  images: {},
});

export function MediaProvider({
  media,
  images = {},
  children,
}: {
  media: Record<string, MediaInfo>;
  images?: Record<string, string>;
  children: ReactNode;
}) {
  const value = useMemo(() => ({ media, images }), [media, images]);
  return <MediaContext.Provider value={value}>{children}</MediaContext.Provider>;
}
