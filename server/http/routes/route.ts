import type { Request, Response } from "express";
import type { PageInfo } from "../../../domain/pagination";
import type { Viewer } from "../../services/accounts";

export type Access = "public" | "user" | "admin";

interface RouteBase {
  method: "get" | "post" | "put" | "delete";
  /** Spelled as the spec spells it (the router is case-sensitive). */
  path: string;
  /** What the call is for, in a few words (documentation and test names). */
  what: string;
  /** The catalogue's answer shape (spec 2): {success: true, data} or {success: false, error}, failures included. */
  envelope?: true;
}

/** A call anyone may make: its handler gets no viewer. */
export interface PublicRoute extends RouteBase {
  access: "public";
  handler: (req: Request, res: Response) => Promise<unknown>;
}

/** A call for signed-in people (`user`) or administrators (`admin`): admitted before it runs, so the viewer is there. */
export interface SignedInRoute extends RouteBase {
  access: "user" | "admin";
  handler: (req: Request, res: Response, viewer: Viewer) => Promise<unknown>;
}

/** One REST call: declared once as a plain object, registered from the table, and tested from it (the permission matrix). */
export type ApiRoute = PublicRoute | SignedInRoute;

// What handlers share: the id in the path, the spec's write answers, and list pages.

export const id = (req: Request) => String(req.params.id);

/** 201 with the spec's insert answer. */
export const added = (res: Response, insertedId: string | null) => {
  res.status(201);
  return { acknowledged: true, insertedId };
};

/** The spec's update answer (an update never inserts: matchedCount is 1, an unknown id is a 404). */
export const updated = (modified: boolean, extra: Record<string, unknown> = {}) => ({
  acknowledged: true,
  matchedCount: 1,
  modifiedCount: modified ? 1 : 0,
  ...extra,
});

/** The page size asked for with ?limit= (1 to 100), else the call's own. */
export const perPage = (req: Request, fallback = 20) => {
  const n = Number(req.query.limit);
  return Number.isInteger(n) && n >= 1 && n <= 100 ? n : fallback;
};

/** One page of a list: the rows are the body, the counts go in X-Total-Count, X-Page and X-Pages. */
export function paged<T>(res: Response, rows: T[], page: Pick<PageInfo, "total" | "page" | "pages">): T[] {
  res.setHeader("X-Total-Count", String(page.total));
  res.setHeader("X-Page", String(page.page));
  res.setHeader("X-Pages", String(page.pages));
  return rows;
}
