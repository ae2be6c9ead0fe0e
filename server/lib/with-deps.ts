/**
 * A function over a service's dependencies, `(deps, ...args)`, with them given: what a service's factory hands out,
 * so its callers see `(...args)` alone. The factory only wires; each command or query is a function of its own
 * (decision 085).
 */
export const withDeps =
  <D, A extends unknown[], R>(deps: D, run: (deps: D, ...args: A) => R) =>
  (...args: A): R =>
    run(deps, ...args);
