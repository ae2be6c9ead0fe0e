import { Outlet, useRouteLoaderData } from "react-router";
import type { Route } from "./+types/site-frame";
import { describeError, ErrorPanel } from "../components/ErrorPanel";
import SiteFrame from "../components/layout/SiteFrame";
import type { RootData } from "../root";

/**
 * The public site's and customer area's frame (header, footer), a pathless layout around every page but the back
 * office's (app/routes.ts), which draws its own: the back office's scripts carry neither (issue 28, part 6). It has no
 * loader: the root's data holds what the frame shows.
 */
export default function SiteFrameLayout() {
  return (
    <SiteFrame>
      <Outlet />
    </SiteFrame>
  );
}

/** A page of the site that failed (404 from a loader, 500): its message in the site's frame. */
export function ErrorBoundary({ error }: Route.ErrorBoundaryProps) {
  const root = useRouteLoaderData<RootData>("root");
  return (
    <SiteFrame mainClassName="flex flex-1 items-center bg-sand/50">
      <title>{`${describeError(error).title} | ${root?.siteName ?? "Studio"}`}</title>
      <meta name="robots" content="noindex" />
      <ErrorPanel error={error} />
    </SiteFrame>
  );
}
