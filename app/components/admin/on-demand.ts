import { use } from "react";

/**
 * A module the browser loads when a part of the page first needs it, and the server holds from its start: the returned
 * hook gives the module. React's `use` reads a promise that says it has settled (its `status` and `value`) at once, so
 * the server never waits for it and draws the part inline (an address that opens a dialog is answered whole, without
 * JavaScript too). In the browser the part is drawn in a transition (the page stays as it is until the module has
 * arrived); a part the server drew makes the page's hydration wait for it. No Suspense boundary: React's server
 * moves a large one's content out of place, to be put back by a script, which a browser without JavaScript never runs.
 */
export function onDemand<T>(load: () => Promise<T>): () => T {
  let module: Promise<T> | undefined;
  const start = () => {
    const loading = load();
    // What React's `use` reads of a settled promise (its types: FulfilledReactPromise).
    void loading.then((value) => Object.assign(loading, { status: "fulfilled", value }));
    return loading;
  };
  if (import.meta.env.SSR) module = start();
  return () => use((module ??= start()));
}
