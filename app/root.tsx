import "./context";
import { useEffect, useMemo } from "react";
import { Links, Meta, Outlet, Scripts, useMatches, useRouteLoaderData, type LinksFunction } from "react-router";
import type { Route } from "./+types/root";
import stylesheet from "./app.css?url";
// The same files app.css's @font-face rules name (one hashed asset each), preloaded so text rarely waits for them.
import frauncesFont from "@fontsource-variable/fraunces/files/fraunces-latin-wght-normal.woff2?url";
import interFont from "@fontsource-variable/inter/files/inter-latin-wght-normal.woff2?url";
import { describeError, ErrorPanel } from "./components/ErrorPanel";
import { LoadingBar, PageSpinner, ScrollOnNavigate } from "./components/layout/NavigationEffects";
import { MediaProvider } from "./components/media/MediaProvider";
import { ToastProvider } from "./components/toast";
import { pickContent } from "./content/pages";
import type { MediaInfo } from "#domain/media.ts";
import { hydrates, routeInlineScripts } from "./lib/hydration";
import { PLAIN_PAGE_SCRIPT } from "./lib/plain-page-script";
import { siteName } from "#domain/site.ts";
import { staticImagesUsed } from "./lib/static-images.server";

// The stylesheet is not among the links: drawn in <Layout> with a `precedence`, React writes it at the top of <head>,
// before the module preloads, so the one file the first paint waits for is asked for first.
export const links: LinksFunction = () => [
  { rel: "preload", href: interFont, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "preload", href: frauncesFont, as: "font", type: "font/woff2", crossOrigin: "anonymous" },
  { rel: "icon", href: "/favicon.svg", type: "image/svg+xml" },
];

export async function loader({ context }: Route.LoaderArgs) {
  const [content, viewer, settings, blog] = await Promise.all([
    context.services.content.snapshot(),
    context.viewer(),
    context.services.settings.all(),
    // Known per content generation (publishing moves it): no query per page.
    context.services.blog.hasPublished(),
  ]);
  const chrome = pickContent(content, "chrome");
  return {
    publicUrl: context.config.publicUrl,
    siteName: siteName(content),
    // Every price on the site is in it (issue 35); a change of it tells every instance, as a content change does.
    currency: settings.money.currency,
    // The header's Admin link: for staff of every role (the back office shows each its own areas).
    user: viewer ? { isAdmin: viewer.staffRole !== null } : null,
    chrome,
    // The header's Blog link: once an article is published (issue 36).
    blog,
    media: await context.services.media.describe(chrome),
    staticImages: staticImagesUsed(content, context.staticImages),
  };
}

export type RootData = Awaited<ReturnType<typeof loader>>;

/**
 * A plain page's inline script: only in the server's HTML (a plain page is never hydrated, and a script React adds
 * in the browser does not run), so the browser's bundle leaves its text out (Vite replaces import.meta.env.SSR).
 */
const plainPageScript = import.meta.env.SSR ? PLAIN_PAGE_SCRIPT : "";

export function Layout({ children }: { children: React.ReactNode }) {
  // Marks the document once React has taken it over: end-to-end tests wait for it before they click.
  useEffect(() => document.documentElement.setAttribute("data-hydrated", ""), []);
  // A public page that opted out (app/lib/hydration.ts) is sent without <Scripts>: no module scripts, no module
  // preloads (React Router writes both there, and its streamed-data scripts only after it), nothing to hydrate.
  const matches = useMatches();
  const scripts = hydrates(matches);
  return (
    <html lang="en" className={scripts ? undefined : "plain-page"}>
      <head>
        <meta charSet="utf-8" />
        <meta name="viewport" content="width=device-width, initial-scale=1" />
        <meta name="theme-color" content="#1f3d36" />
        <link rel="stylesheet" href={stylesheet} precedence="default" />
        <Meta />
        <Links />
      </head>
      <body className="flex min-h-dvh flex-col">
        {/* A plain page (no React): the loading bar is a CSS animation, and one small inline script closes the menu
            and posts the public forms in place (app/styles/motion.css, app/lib/plain-page-script.ts; decision 051);
            a route may add its own after it (the item generator's: decision 057). */}
        {scripts ? null : <div className="page-bar" data-testid="loading-bar" aria-hidden="true" />}
        {children}
        {scripts ? (
          <Scripts />
        ) : (
          [plainPageScript, ...routeInlineScripts(matches)].map((script, i) => (
            <script key={i} dangerouslySetInnerHTML={{ __html: script }} />
          ))
        )}
      </body>
    </html>
  );
}

export default function App({ loaderData }: Route.ComponentProps) {
  const matches = useMatches();
  // The library images of every matched route (each loader that draws some returns their `media`).
  const media = useMemo(
    () =>
      Object.assign(
        {},
        ...matches.map((m) => (m.loaderData as { media?: Record<string, MediaInfo> } | undefined)?.media),
      ) as Record<string, MediaInfo>,
    [matches],
  );
  // The frame is the child layout's: the site's header and footer (app/routes/site-frame.tsx) around the public and
  // customer pages, the back office's own (app/routes/admin/layout.tsx) around its pages, so neither's scripts load
  // the other's.
  return (
    <ToastProvider>
      <MediaProvider media={media} images={loaderData.staticImages}>
        <a
          href="#main"
          className="sr-only focus:not-sr-only focus:fixed focus:top-3 focus:left-3 focus:z-[80] focus:rounded focus:bg-white focus:px-4 focus:py-2"
        >
          Skip to content
        </a>
        <LoadingBar />
        <ScrollOnNavigate />
        <Outlet />
        <PageSpinner />
      </MediaProvider>
    </ToastProvider>
  );
}

/**
 * An error no frame's boundary caught: the root's own loader failed (no site name, logo or footer content to draw a
 * frame with), or a frame itself failed. The pages' errors are drawn in their frame: the site's by
 * app/routes/site-frame.tsx, the back office's by app/routes/admin/layout.tsx.
 */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRouteLoaderData<RootData>("root");
  return (
    <ToastProvider>
      <title>{`${describeError(error).title} | ${root?.siteName ?? "Studio"}`}</title>
      <meta name="robots" content="noindex" />
      <main id="main" className="flex flex-1 items-center bg-sand/50">
        <ErrorPanel error={error} />
      </main>
    </ToastProvider>
  );
}
