import { useLocation, useNavigation, useRouteLoaderData } from "react-router";
import type { RootData } from "#app/root.tsx";
import { Footer } from "./Footer";
import { Header } from "./Header";

/**
 * The public site's frame: the header, the page's main landmark and the footer, from the root's data (logo, site name,
 * the header's account links, the footer's content). Drawn around every page but the back office's (the pathless
 * layout app/routes/site-frame.tsx), so the back office's scripts never load it; the back office's refusal loads that
 * layout's error page on demand (app/components/back-office/SiteErrorPage.tsx). Without the root's data (its loader
 * failed) the page is drawn alone.
 */
export default function SiteFrame({
  children,
  mainClassName,
  frame,
}: {
  children: React.ReactNode;
  mainClassName?: string;
  /** The logo, footer and site name to draw instead of the saved ones (a preview of an unsaved change: decision 074). */
  frame?: Pick<RootData, "chrome" | "siteName">;
}) {
  const saved = useRouteLoaderData<RootData>("root");
  const root = saved && frame ? { ...saved, ...frame } : saved;
  const location = useLocation();
  const navigation = useNavigation();
  // A page reached in the browser fades in; the page the server sent does not (location "default"): held at opacity 0
  // its content could not be the largest paint until the fade ended, 0.3 s after the first paint.
  const className =
    mainClassName ??
    `flex-1 ${location.key === "default" ? "" : "animate-page-in"} transition-opacity duration-300 ${navigation.state === "loading" ? "opacity-0" : "opacity-100"}`;
  return (
    <>
      {root ? (
        <Header logo={root.chrome.logo[0]?.logo} siteName={root.siteName} user={root.user} blog={root.blog} />
      ) : null}
      <main id="main" key={location.pathname} className={className}>
        {children}
      </main>
      {root ? <Footer siteName={root.siteName} content={root.chrome} /> : null}
    </>
  );
}
