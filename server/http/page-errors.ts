import { data, type ServerBuild } from "react-router";
import { isAppError } from "../lib/errors";

type Handler = (...args: never[]) => unknown;

/** Runs a loader or action; an AppError it throws becomes React Router's error response with the same status. */
function guarded<F extends Handler>(handler: F | undefined): F | undefined {
  if (!handler) return handler;
  return (async (...args: Parameters<F>) => {
    try {
      return await handler(...args);
    } catch (error) {
      // React Router turns any thrown error but its own into a 500: an AppError keeps its status (404, 409, 503 …).
      if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
      throw error;
    }
  }) as F;
}

const wrapped = new WeakMap<ServerBuild, ServerBuild>();

/**
 * The pages' one error boundary: every route's loader and action, wrapped once per build, so that no route catches an
 * AppError itself. Forms answer their refusals as field errors first (app/lib/form.server.ts); what reaches this
 * boundary is shown by the route's ErrorBoundary with its status.
 */
export function withAppErrors(build: ServerBuild): ServerBuild {
  let out = wrapped.get(build);
  if (!out) {
    const routes = Object.fromEntries(
      Object.entries(build.routes).map(([id, route]) => {
        if (!route) return [id, route];
        const module = { ...route.module, loader: guarded(route.module.loader), action: guarded(route.module.action) };
        return [id, { ...route, module }];
      }),
    );
    out = { ...build, routes };
    wrapped.set(build, out);
  }
  return out;
}

/** The same for a build given lazily (the development server hands a fresh one after each change). */
export function withAppErrorsLazy(
  build: ServerBuild | (() => Promise<ServerBuild>),
): ServerBuild | (() => Promise<ServerBuild>) {
  return typeof build === "function" ? async () => withAppErrors(await build()) : withAppErrors(build);
}
