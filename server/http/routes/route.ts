import type { Request, Response } from "express";
import type { PageInfo } from "#domain/pagination.ts";
import type { StaffArea } from "#domain/capabilities.ts";
import type { SectionType } from "#domain/registry.ts";
import type { TrashKind } from "#domain/trash.ts";
import type { Viewer } from "#server/services/accounts.ts";

/** Who may call: anyone, anyone signed in, or staff (the back office: its `area` says which roles open it). */
export type Access = "public" | "user" | "staff";

interface RouteBase {
  method: "get" | "post" | "put" | "delete";
  /** Spelled as the spec spells it (the router is case-sensitive). */
  path: string;
  /** What the call is for, in a few words (documentation and test names). */
  what: string;
  /** The catalogue's answer shape (spec 2): {success: true, data} or {success: false, error}, failures included. */
  envelope?: true;
  /**
   * A body that is no JSON (PayPal's IPN messages, form-encoded): read as text, at most BODY_LIMIT_BYTES, kept exactly
   * as it came in `req.rawBody` (its verification posts these bytes back), before the API's JSON rule.
   */
  body?: "text";
  /**
   * Never for API keys, whatever their areas (decision 077): the calls that need a signed-in person (placing an order
   * for oneself) and the key calls themselves (no key makes keys).
   */
  noKeys?: true;
  /** An example of the call (see RouteSample): a back-office write declares one, any other call may. */
  sample?: RouteSample;
}

/** Plain JSON, as a sample's body holds it. */
type SampleJson = string | number | boolean | null | SampleJson[] | { [field: string]: SampleJson };

/**
 * A kind of record a sample names by its id. The permission matrix (tests/integration/admin-api.test.ts) keeps one
 * fixture per kind, which makes or finds one: a content section's record (by its type), a record in the trash (by
 * the trash's kind), or one of these.
 */
export type SampleRecord =
  | SectionType
  | `trashed ${TrashKind}`
  | "admin user"
  | "staff member"
  | "staff member with two-factor"
  | "message"
  | "order"
  | "paid order"
  | "customer"
  | "customer's unpaid order"
  | "item"
  | "payment account"
  | "discount code"
  | "image"
  | "failed job"
  | "import"
  | "content change"
  | "article"
  | "article version"
  | "newsletter"
  | "scheduled newsletter"
  | "suppressed address"
  | "API key"
  | "webhook endpoint"
  | "webhook delivery";

/**
 * An example of a call, declared with it (issue 39): documentation of the call, and the request the permission matrix
 * sends for it. Declaration only: the router and the handlers never read it.
 */
export interface RouteSample {
  /**
   * The record each parameter of the path names (`id: "order"`), and each field of the body that holds an id (put in
   * the body: `orderId: "customer's unpaid order"`); a kind in brackets (`ids: ["faq"]`) is every record of that kind,
   * in a new order. Named in order: a record that belongs to another (a customer's order) comes after it.
   */
  ids?: Record<string, SampleRecord | [SampleRecord]>;
  /** The body, without those ids: plain JSON, with the spec's field names. None: the call takes no body. */
  body?: { [field: string]: SampleJson };
}

/** A call anyone may make: its handler gets no viewer. */
export interface PublicRoute extends RouteBase {
  access: "public";
  handler: (req: Request, res: Response) => Promise<unknown>;
}

interface SignedInBase extends RouteBase {
  handler: (req: Request, res: Response, viewer: Viewer) => Promise<unknown>;
}

interface StaffBase extends SignedInBase {
  access: "staff";
  area: StaffArea;
}

/** A back-office read: its sample names the records its path's parameters name, when it has any. */
interface StaffRead extends StaffBase {
  method: "get";
}

/** A back-office write: it declares its sample (the permission matrix sends it). */
interface StaffWrite extends StaffBase {
  method: "post" | "put" | "delete";
  sample: RouteSample;
}

/** A back-office call: for staff whose role opens its area (domain/capabilities.ts, decision 036). */
export type StaffRoute = StaffRead | StaffWrite;

/**
 * A call for anyone signed in (a customer's own records). With an area, staff call it as staff (every record), so a
 * staff member whose role does not open that area is refused rather than answered as a customer.
 */
export interface UserRoute extends SignedInBase {
  access: "user";
  area?: StaffArea;
}

/** Admitted before it runs, so the viewer is there. */
export type SignedInRoute = StaffRoute | UserRoute;

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

/**
 * One page of a list: the rows are the body, the counts go in X-Total-Count, X-Page and X-Pages (a bounded count that
 * stopped counting adds X-Total-Capped: true, and X-Total-Count is then a lower bound).
 */
export function paged<T>(res: Response, rows: T[], page: Pick<PageInfo, "total" | "page" | "pages" | "capped">): T[] {
  res.setHeader("X-Total-Count", String(page.total));
  if (page.capped) res.setHeader("X-Total-Capped", "true");
  res.setHeader("X-Page", String(page.page));
  res.setHeader("X-Pages", String(page.pages));
  return rows;
}

type Quartet<T> = { list: T; one: T; add: T; update: T };

/** A sample's body. */
type SampleBody = NonNullable<RouteSample["body"]>;

/**
 * The spec's four calls for one kind of record, at its paths: list and one (open to `read`), add (201 with the insert
 * answer) and update (the update answer), for the staff whose role opens `area`. `sample`: the kind of record the
 * paths' ids name, and the bodies of an add and an update.
 */
export function recordRoutes({
  paths,
  what,
  read,
  area,
  sample,
  store,
}: {
  paths: Quartet<string>;
  what: Quartet<string>;
  read: Access;
  area: StaffArea;
  sample: { record: SampleRecord; add: SampleBody; update: SampleBody };
  store: {
    list: () => Promise<unknown>;
    get: (id: string) => Promise<unknown>;
    add: (body: unknown, viewer: Viewer) => Promise<string | null>;
    update: (id: string, body: unknown, viewer: Viewer) => Promise<{ modified: boolean }>;
  };
}): ApiRoute[] {
  // A read as `read` says: open to anyone, or to the signed-in (staff whose role opens `area` read every record).
  const reading = (
    path: string,
    what: string,
    handler: (req: Request) => Promise<unknown>,
    oneSample?: RouteSample,
  ): ApiRoute =>
    read === "public"
      ? { method: "get", path, what, access: "public", handler, sample: oneSample }
      : read === "user"
        ? { method: "get", path, what, access: "user", area, handler, sample: oneSample }
        : { method: "get", path, what, access: "staff", area, handler, sample: oneSample };
  const ids = { id: sample.record };
  return [
    reading(paths.list, what.list, () => store.list()),
    reading(paths.one, what.one, (req) => store.get(id(req)), { ids }),
    {
      method: "post",
      path: paths.add,
      access: "staff",
      area,
      what: what.add,
      sample: { body: sample.add },
      handler: async (req, res, viewer) => added(res, await store.add(req.body, viewer)),
    },
    {
      method: "put",
      path: paths.update,
      access: "staff",
      area,
      what: what.update,
      sample: { ids, body: sample.update },
      handler: async (req, _res, viewer) => updated((await store.update(id(req), req.body, viewer)).modified),
    },
  ];
}
