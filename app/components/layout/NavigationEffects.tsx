import { useEffect, useRef, useState } from "react";
import { useLocation, useNavigation } from "react-router";

/** A thin bar at the top for 400 ms on every navigation (longer while a page is still loading). */
export function LoadingBar() {
  const navigation = useNavigation();
  const location = useLocation();
  const [run, setRun] = useState(0);
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      return;
    }
    setRun((n) => n + 1);
  }, [location.key]);
  const busy = navigation.state !== "idle";
  // The last navigation whose bar has run its 400 ms: the bar shows while loading and until then.
  const [finished, setFinished] = useState(0);
  useEffect(() => {
    if (busy || run === finished) return;
    const t = setTimeout(() => setFinished(run), 400);
    return () => clearTimeout(t);
  }, [busy, run, finished]);
  if (!busy && run === finished) return null;
  return (
    <div
      key={busy ? "busy" : run}
      data-testid="loading-bar"
      aria-hidden="true"
      className="fixed inset-x-0 top-0 z-[70] h-0.5 origin-left animate-bar bg-clay"
    />
  );
}

/** Smooth scroll to the top on every route change; to the anchor when the address names one. */
export function ScrollOnNavigate() {
  const { pathname, hash } = useLocation();
  const first = useRef(true);
  useEffect(() => {
    if (first.current) {
      first.current = false;
      if (!hash) return;
    }
    if (hash) {
      const target = document.getElementById(decodeURIComponent(hash.slice(1)));
      if (target) {
        target.scrollIntoView({ behavior: "smooth", block: "start" });
        return;
      }
    }
    window.scrollTo({ top: 0, behavior: "smooth" });
  }, [pathname, hash]);
  return null;
}

/**
 * While another page loads (the dashboard, a back-office screen): a spinner where the faded-out page was. It sits
 * outside <main>, which is transparent meanwhile.
 */
export function PageSpinner() {
  const navigation = useNavigation();
  const location = useLocation();
  if (navigation.state !== "loading" || navigation.location.pathname === location.pathname) return null;
  return (
    <div
      data-testid="page-spinner"
      role="status"
      className="pointer-events-none fixed inset-x-0 top-1/3 z-30 flex animate-spinner-in justify-center"
    >
      <span className="flex items-center gap-3 rounded-full bg-white px-5 py-3 text-sm font-medium text-ink shadow-lg ring-1 ring-linen">
        <span
          aria-hidden="true"
          className="h-5 w-5 animate-spin rounded-full border-[3px] border-linen border-t-clay"
        />
        Loading…
      </span>
    </div>
  );
}
