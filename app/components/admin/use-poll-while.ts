import { useEffect } from "react";
import { useRevalidator } from "react-router";

/**
 * Loads the page's data again every `ms` while `working` is true (a job, an import, a send or a delivery is under way),
 * skipping a tick while a load is still on its way.
 */
export function usePollWhile(working: boolean, ms = 3000): void {
  const revalidator = useRevalidator();
  useEffect(() => {
    if (!working) return;
    const timer = setInterval(() => {
      if (revalidator.state === "idle") void revalidator.revalidate();
    }, ms);
    return () => clearInterval(timer);
  }, [working, ms, revalidator]);
}
