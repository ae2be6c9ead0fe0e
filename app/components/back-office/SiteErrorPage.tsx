import { use, type ComponentType } from "react";
import { UNSAFE_FrameworkContext as FrameworkContext } from "react-router";

/** The site's frame, a pathless layout route (app/routes/site-frame.tsx) whose error page draws a failure in it. */
const SITE_FRAME = "routes/site-frame";

type RouteModule = { ErrorBoundary?: ComponentType };
let loading: Promise<RouteModule> | undefined;

/**
 * The site frame's own error page (header, the failure, footer), for a page drawn outside that layout: the back
 * office refusing someone who is not staff (app/routes/admin/layout.tsx). Its route module is taken where React
 * Router keeps it: on the server every route module is loaded, so the page is drawn whole; in the browser it is loaded
 * by its address in React Router's manifest, as React Router loads a route's module (so the back office's scripts
 * carry neither the frame nor Vite's preload helper), and the page hydrates once it has arrived (showing the server's
 * HTML until then; no Suspense boundary, whose content React's server could move out of place for a script to put
 * back). It reads the failure itself (React Router's error of the boundary drawing it).
 */
export function SiteErrorPage() {
  const { manifest, routeModules } = use(FrameworkContext)!;
  const module =
    (routeModules[SITE_FRAME] as RouteModule | undefined) ??
    use((loading ??= import(/* @vite-ignore */ manifest.routes[SITE_FRAME]!.module) as Promise<RouteModule>));
  const ErrorBoundary = module.ErrorBoundary!;
  return <ErrorBoundary />;
}
