import type { MetaDescriptor } from "react-router";
import type { RootData } from "#app/root.tsx";
import type { PageSeo } from "#domain/page-seo.ts";
import { seo } from "#app/lib/seo.ts";

type MetaArgs = {
  data?: { seo?: PageSeo } | undefined;
  matches: ReadonlyArray<{ id: string; data?: unknown } | undefined>;
};

/**
 * A public page's title, description, canonical link, Open Graph and Twitter card tags, from its search listing (the
 * loader's `seo`: what the studio wrote in the back office, else the defaults of domain/page-seo.ts) and the root's
 * public URL and site name.
 */
export function pageMeta(args: MetaArgs): MetaDescriptor[] {
  const root = args.matches.find((m) => m?.id === "root")?.data as RootData | undefined;
  const siteName = root?.siteName ?? "Studio";
  const listing = args.data?.seo;
  return seo({
    title: listing?.title.value ?? siteName,
    description: listing?.description.value ?? "",
    path: listing?.path ?? "/",
    image: listing?.image.value || undefined,
    publicUrl: root?.publicUrl ?? "",
    siteName,
  });
}
