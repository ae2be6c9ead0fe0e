import type { Request, RequestHandler, Response } from "express";

/**
 * One bound for every request body that reaches a page action or the API (issue 12, D1). Our forms and calls send
 * a few kilobytes; PayPal's notifications stay under 20 KB.
 */
export const BODY_LIMIT_BYTES = 64 * 1024;
export const BODY_TOO_LARGE = `The request body is too large: the limit is ${BODY_LIMIT_BYTES / 1024} KB.`;

/**
 * An article's saves (issue 36): up to 1 MB of HTML (domain/articles.ts MAX_BODY_CHARS) with the other fields, as JSON
 * (its escapes) or as the editing screen's multipart form. Only these addresses: every other stays at the default.
 */
export const ARTICLE_BODY_LIMIT_BYTES = 3 * 1024 * 1024;
const LARGER_BODIES: readonly { path: RegExp; limit: number; message: string }[] = [
  {
    path: /^\/(api\/)?articles(\/|$)/,
    limit: ARTICLE_BODY_LIMIT_BYTES,
    message: `The request body is too large: the limit for an article is ${ARTICLE_BODY_LIMIT_BYTES / 1024 / 1024} MB.`,
  },
];

/** The bound of a request's body at this path (the default, or the larger one of an address that needs it). */
export function bodyLimitFor(path: string): { limit: number; message: string } {
  return LARGER_BODIES.find((b) => b.path.test(path)) ?? { limit: BODY_LIMIT_BYTES, message: BODY_TOO_LARGE };
}
export const BAD_CHARACTER =
  "The request contains a character that text cannot hold (a NUL character or an unpaired UTF-16 surrogate).";
export const NOT_A_FORM = "Send this page's form as a form (application/x-www-form-urlencoded or multipart/form-data).";
export const UNREADABLE_FORM = "The form could not be read.";

const WRITE = new Set(["POST", "PUT", "PATCH", "DELETE"]);
const FORM_TYPES = ["application/x-www-form-urlencoded", "multipart/form-data"];
// A NUL, a high surrogate not followed by a low one, or a low one not preceded by a high one.
const UNSTORABLE = /\0|[\uD800-\uDBFF](?![\uDC00-\uDFFF])|(?<![\uD800-\uDBFF])[\uDC00-\uDFFF]/;

/** True for a string PostgreSQL cannot store as text or jsonb. */
export const isUnstorable = (s: string) => UNSTORABLE.test(s);

/** Whether any string (key or value) anywhere in a parsed body or query is one PostgreSQL cannot store. */
export function hasUnstorableText(value: unknown, depth = 0): boolean {
  if (typeof value === "string") return isUnstorable(value);
  if (depth > 32 || value === null || typeof value !== "object") return false;
  for (const [k, v] of Object.entries(value)) {
    if (isUnstorable(k) || hasUnstorableText(v, depth + 1)) return true;
  }
  return false;
}

const hasBody = (req: Request) =>
  req.headers["transfer-encoding"] !== undefined ||
  (req.headers["content-length"] !== undefined && req.headers["content-length"] !== "0");

/** Answers JSON to the API (and to programs asking for it), a plain sentence to everyone else. */
export function refuse(req: Request, res: Response, status: number, message: string) {
  res.setHeader("Cache-Control", "no-store");
  if (status === 413) res.setHeader("Connection", "close"); // the unread rest of the body is not worth reading
  if (req.originalUrl.startsWith("/api/") || req.accepts(["html", "json"]) === "json") {
    res.status(status).json({ error: message });
  } else {
    res.status(status).type("text/plain").send(message);
  }
}

/**
 * Before anything reads a body: a declared Content-Length over the bound is refused at once, and a URL whose query
 * holds text that cannot be stored is refused (400), so no handler ever reaches the database with it.
 */
export const boundedRequests: RequestHandler = (req, res, next) => {
  const declared = Number(req.headers["content-length"] ?? 0);
  const bound = bodyLimitFor(req.path);
  if (WRITE.has(req.method) && declared > bound.limit) return refuse(req, res, 413, bound.message);
  if (hasUnstorableText(req.query)) return refuse(req, res, 400, BAD_CHARACTER);
  next();
};

/** After a JSON body parser: a body holding text that cannot be stored is refused (400), never a 500 later. */
export const storableJson: RequestHandler = (req, res, next) => {
  if (hasUnstorableText(req.body)) return refuse(req, res, 400, BAD_CHARACTER);
  next();
};

declare module "express-serve-static-core" {
  interface Request {
    /** A page action's form, read and checked before React Router sees it. */
    formBody?: Buffer;
  }
}

/**
 * The body of a request to a page (an action): it must be a form (415 otherwise), at most BODY_LIMIT_BYTES counted as
 * it streams in (413, without reading the rest), readable as a form (400), and hold only storable text (400). React
 * Router then reads it from memory (req.formBody).
 */
export const pageForm: RequestHandler = (req, res, next) => {
  if (!WRITE.has(req.method) || !hasBody(req)) return next();
  const type = (req.headers["content-type"] ?? "").split(";")[0]!.trim().toLowerCase();
  if (!FORM_TYPES.includes(type)) return refuse(req, res, 415, NOT_A_FORM);
  const bound = bodyLimitFor(req.path);
  readBounded(req, bound.limit).then(
    async (body) => {
      if (body === "too large") return refuse(req, res, 413, bound.message);
      let form: FormData;
      try {
        const headers = { "content-type": String(req.headers["content-type"]) };
        form = await new Request("http://form.invalid/", {
          method: "POST",
          headers,
          body: new Uint8Array(body),
        }).formData();
      } catch {
        return refuse(req, res, 400, UNREADABLE_FORM);
      }
      for (const [k, v] of form) {
        if (isUnstorable(k) || (typeof v === "string" ? isUnstorable(v) : isUnstorable(v.name))) {
          return refuse(req, res, 400, BAD_CHARACTER);
        }
      }
      req.formBody = body;
      next();
    },
    () => {
      if (!res.headersSent && !res.destroyed) refuse(req, res, 400, UNREADABLE_FORM);
    },
  );
};

/** Reads a request body, counting bytes as they arrive; stops listening past `limit`. */
function readBounded(req: Request, limit: number): Promise<Buffer | "too large"> {
  return new Promise((resolve, reject) => {
    const chunks: Buffer[] = [];
    let size = 0;
    const onData = (chunk: Buffer) => {
      size += chunk.length;
      if (size > limit) {
        cleanup();
        req.unpipe();
        req.pause();
        resolve("too large");
        return;
      }
      chunks.push(chunk);
    };
    const onEnd = () => {
      cleanup();
      resolve(Buffer.concat(chunks));
    };
    const onError = (error: Error) => {
      cleanup();
      reject(error);
    };
    const cleanup = () => {
      req.off("data", onData);
      req.off("end", onEnd);
      req.off("error", onError);
    };
    req.on("data", onData);
    req.on("end", onEnd);
    req.on("error", onError);
  });
}
