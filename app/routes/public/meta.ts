import type { MetaDescriptor } from "react-router";
import type { RootData } from "../../root";
import { seo } from "../../lib/seo";

type MetaArgs = { matches: ReadonlyArray<{ id: string; data?: unknown } | undefined> };

/** Per-page title, description, canonical link and Open Graph tags, using the root's public URL and site name. */
export function pageMeta(
  args: MetaArgs,
  page: { title: string; description: string; path: string; image?: string },
): MetaDescriptor[] {
  const root = args.matches.find((m) => m?.id === "root")?.data as RootData | undefined;
  const siteName = root?.siteName ?? "Studio";
  return seo({
    ...page,
    title: page.title.includes(siteName) ? page.title : `${page.title} | ${siteName}`,
    publicUrl: root?.publicUrl ?? "",
    siteName,
  });
}
