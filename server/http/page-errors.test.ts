import { describe, expect, it } from "vitest";
import { Writable } from "node:stream";
import { createRequestHandler, type EntryContext, type ServerBuild } from "react-router";
import { AppError } from "../lib/errors";
import { createLogger } from "../lib/logger";
import { withAppErrors } from "./page-errors";

/** Every kind of AppError a service throws. */
const KINDS = [400, 401, 403, 404, 409, 413, 429, 503] as const;

function throwing({ params }: { params: Record<string, string | undefined> }): never {
  if (params.status === "bug") throw new TypeError("a bug of ours");
  throw new AppError(Number(params.status), `refused with ${params.status}`);
}

/**
 * A real React Router request handler over the smallest build there is: a root and one route whose loader and action
 * throw an AppError. The document entry answers with the status React Router computed, so nothing else is tested.
 */
function build(): ServerBuild {
  const routes = {
    root: { id: "root", path: "", module: { default: () => null, ErrorBoundary: () => null } },
    boom: {
      id: "boom",
      parentId: "root",
      path: "boom/:status",
      module: { default: () => null, ErrorBoundary: () => null, loader: throwing, action: throwing },
    },
  };
  return {
    entry: {
      module: {
        default: (_request: Request, status: number) => new Response(`status ${status}`, { status }),
        handleError: () => {}, // the 500s below are expected
      },
    },
    routes,
    assets: {
      entry: { module: "/entry.js", imports: [] },
      routes: {
        root: { id: "root", module: "/root.js", hasAction: false, hasLoader: false } as never,
        boom: {
          id: "boom",
          parentId: "root",
          path: "boom/:status",
          module: "/boom.js",
          hasLoader: true,
          hasAction: true,
        } as never,
      },
      url: "/manifest.js",
      version: "1",
    },
    publicPath: "/",
    assetsBuildDirectory: "build/client",
    future: {} as never,
    ssr: true,
    isSpaMode: false,
    prerender: [],
    routeDiscovery: { mode: "initial", manifestPath: "/__manifest" },
  } as unknown as ServerBuild;
}

const request = (path: string, method = "GET") =>
  new Request(`http://localhost${path}`, {
    method,
    headers:
      method === "POST" ? { "content-type": "application/x-www-form-urlencoded", origin: "http://localhost" } : {},
    body: method === "POST" ? "a=1" : undefined,
  });

describe("the pages' error boundary", () => {
  const handle = createRequestHandler(withAppErrors(build()), "production");

  for (const status of KINDS) {
    it(`keeps ${status} from a loader and an action, for a document and a data request`, async () => {
      expect((await handle(request(`/boom/${status}`))).status, "loader, document").toBe(status);
      expect((await handle(request(`/boom/${status}.data`))).status, "loader, data").toBe(status);
      expect((await handle(request(`/boom/${status}`, "POST"))).status, "action, document").toBe(status);
      expect((await handle(request(`/boom/${status}.data`, "POST"))).status, "action, data").toBe(status);
    });
  }

  it("leaves any other error a 500", async () => {
    expect((await handle(request("/boom/bug"))).status).toBe(500);
    expect((await handle(request("/boom/bug", "POST"))).status).toBe(500);
  });

  it("is needed: without it React Router answers any thrown AppError with 500", async () => {
    const bare = createRequestHandler(build(), "production");
    expect((await bare(request("/boom/404"))).status).toBe(500);
    expect((await bare(request("/boom/409", "POST"))).status).toBe(500);
  });
});

describe("a page's own failure (a bug)", () => {
  /** The build above, its document entry answering with the errors React Router hands the boundaries. */
  function showingErrors(): ServerBuild {
    const b = build();
    const entry = {
      ...b.entry.module,
      default: (_request: Request, status: number, _headers: Headers, context: EntryContext) =>
        new Response(JSON.stringify(context.staticHandlerContext.errors), { status }),
    };
    return { ...b, entry: { module: entry } } as ServerBuild;
  }

  it("is logged with the request's id and answered 500 with that id as the page's reference", async () => {
    let text = "";
    const destination = new Writable({
      write(chunk, _encoding, done) {
        text += String(chunk);
        done();
      },
    });
    const logger = createLogger("info", { format: "json", destination }).child({ reqId: "req-7" });
    const handle = createRequestHandler(withAppErrors(showingErrors()), "production");
    const res = await handle(request("/boom/bug"), { requestId: "req-7", logger } as never);
    expect(res.status).toBe(500);
    expect(await res.json()).toEqual({
      boom: expect.objectContaining({ status: 500, data: { message: "Something went wrong", reference: "req-7" } }),
    });
    const [line] = text
      .split("\n")
      .filter(Boolean)
      .map((l) => JSON.parse(l) as Record<string, unknown>);
    expect(line).toMatchObject({ level: "error", reqId: "req-7", routeId: "boom", msg: "page error" });
    expect(line!.error).toMatchObject({ type: "TypeError", message: "a bug of ours" });
  });

  it("a failure that is not ours keeps its status and writes no error line", async () => {
    const handle = createRequestHandler(withAppErrors(showingErrors()), "production");
    const res = await handle(request("/boom/404"), { requestId: "req-8" } as never);
    expect(res.status).toBe(404);
    expect(JSON.stringify(await res.json())).not.toContain("req-8");
  });
});
