import { lazy, Suspense } from "react";

const SiteFrame = lazy(() => import("./SiteFrame"));

/**
 * The site's frame for the one page drawn outside app/routes/site-frame.tsx: the back office refusing someone who is
 * not staff (app/routes/admin/layout.tsx). Loaded on demand, so the back office's own pages do not carry the header
 * and footer. The server renders the document whole (app/entry.server.tsx waits for everything), so the frame is in the
 * HTML; in the browser its part hydrates once its script has arrived, showing the server's HTML until then.
 */
export function LazySiteFrame({ children, mainClassName }: { children: React.ReactNode; mainClassName?: string }) {
  return (
    <Suspense
      fallback={
        <main id="main" className={mainClassName ?? "flex-1"}>
          {children}
        </main>
      }
    >
      <SiteFrame mainClassName={mainClassName}>{children}</SiteFrame>
    </Suspense>
  );
}
