import { data, type AppLoadContext, type ServerBuild } from "react-router";
import { isDatabaseUnavailable, UNAVAILABLE_MESSAGE } from "../db/client";
import { isAppError } from "../lib/errors";

type Handler = (...args: never[]) => unknown;
interface HandlerArgs {
  request?: Request;
  context?: Partial<Pick<AppLoadContext, "requestId" | "logger">>;
}

/** What a 500 page carries: the request's id, which the page shows as its "Reference" and the log line holds. */
export interface PageErrorData {
  message: string;
  reference?: string;
}

/**
 * Runs a loader or action. An AppError it throws becomes React Router's error response with the same status; the
 * database being away, a 503; any other error (ours: a bug) is logged with the request's id and becomes a 500 whose
 * data carries that id, so the page can show it and the operator find the line.
 */
function guarded<F extends Handler>(handler: F | undefined, routeId: string): F | undefined {
  if (!handler) return handler;
  return (async (...args: Parameters<F>) => {
    try {
      return await handler(...args);
    } catch (error) {
      // React Router turns any thrown error but its own into a 500: an AppError keeps its status (404, 409, 503 …).
      if (isAppError(error)) throw data({ message: error.message }, { status: error.status });
      // Redirects and responses are thrown on purpose; a request whose visitor left needs no page.
      const { request, context } = (args[0] ?? {}) as HandlerArgs;
      if (!(error instanceof Error) || request?.signal.aborted) throw error;
      if (isDatabaseUnavailable(error)) throw data({ message: UNAVAILABLE_MESSAGE }, { status: 503 });
      context?.logger?.error({ error, routeId }, "page error");
      const body: PageErrorData = { message: "Something went wrong", reference: context?.requestId };
      throw data(body, { status: 500 });
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
        const module = {
          ...route.module,
          loader: guarded(route.module.loader, id),
          action: guarded(route.module.action, id),
        };
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
