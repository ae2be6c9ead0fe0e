import busboy from "busboy";
import { Router, type Request, type RequestHandler, type Response } from "express";
import { MAX_UPLOAD_BYTES, UPLOAD_MESSAGES, type VariantFormat } from "#domain/media.ts";
import type { Config } from "../config";
import { isAppError } from "../lib/errors";
import { IMMUTABLE } from "../media/storage";
import type { Logger } from "../lib/logger";
import { PRIVATE_CACHE_CONTROL } from "./pages";
import { requestLog } from "./requests";
import type { Services } from "../services";
import { BAD_CHARACTER, isUnstorable, UNREADABLE_FORM } from "./body";
import { admit, attachViewer, viewerOf } from "./guards";
import { sameOriginOnly } from "./origin";

/** Where the back office lists the library (a plain form post comes back here). */
export const MEDIA_LIBRARY_PATH = "/media-library";
/** The multipart envelope around the file: boundaries, headers and the alt text field. */
const ENVELOPE_BYTES = 64 * 1024;
const FILE_NAME = /^([0-9a-f]{24})-([1-9][0-9]{0,4})\.(webp|avif|svg)$/;
// An SVG is opened as a document when visited directly: nothing in it may run or load.
const SVG_POLICY = "default-src 'none'; style-src 'unsafe-inline'; sandbox";

/**
 * The media library's two doors that are not JSON: `POST /api/media` (an administrator's upload, multipart, with its
 * own 10 MB bound counted as the bytes stream in) and `GET /media/{key}-{width}.{format}` (the files, cached for a
 * year). Mounted before the app's general 64 KB body bound, so it applies its own Origin check and viewer.
 */
export function mediaRoutes({
  services,
  config,
  logger,
}: {
  services: Services;
  config: Config;
  logger: Logger;
}): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.get("/media/:file", serveFile(services, logger));
  router.post("/api/media", sameOriginOnly(config.allowedOrigins), attachViewer(services), upload(services, logger));
  return router;
}

function serveFile(services: Services, logger: Logger): RequestHandler {
  return (req, res, next) => {
    const m = FILE_NAME.exec(String(req.params.file));
    if (!m) return notFound(res);
    services.media.file(m[1]!, Number(m[2]), m[3] as VariantFormat).then(
      (file) => {
        if (!file) return notFound(res);
        res.setHeader("Cache-Control", IMMUTABLE);
        res.setHeader("ETag", file.etag);
        res.setHeader("Content-Type", file.contentType);
        res.setHeader("X-Content-Type-Options", "nosniff");
        if (m[3] === "svg") res.setHeader("Content-Security-Policy", SVG_POLICY);
        if (req.headers["if-none-match"] === file.etag) return void res.status(304).end();
        res.setHeader("Content-Length", String(file.data.length));
        res.end(file.data);
      },
      (error: unknown) => {
        // The bucket did not answer (decision 081): said as such, kept by no cache, asked again later.
        if (!isAppError(error) || error.status !== 503) return next(error);
        logger.warn({ reason: error.message, file: req.params.file }, "media: the bucket did not answer");
        res.setHeader("Cache-Control", "no-store");
        res.setHeader("Retry-After", "30");
        res.status(503).type("text/plain").send("This image cannot be loaded right now. Try again in a minute.");
      },
    );
  };
}

function notFound(res: Response) {
  res.setHeader("Cache-Control", "no-store");
  res.status(404).type("text/plain").send("No such image.");
}

/** A plain HTML form (no JavaScript) is sent back to the library with the outcome; programs get JSON. */
const wantsPage = (req: Request) => req.accepts(["json", "html"]) === "html";

function answer(req: Request, res: Response, status: number, body: { error: string } | Record<string, unknown>) {
  res.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL); // made for the signed-in uploader (decision 059)
  res.vary("Cookie");
  if (status === 413) res.setHeader("Connection", "close"); // the unread rest of the body is not worth reading
  if (wantsPage(req)) {
    const query = "error" in body ? `error=${encodeURIComponent(String(body.error))}` : "uploaded=1";
    return void res.redirect(303, `${MEDIA_LIBRARY_PATH}?${query}`);
  }
  if (status === 429) res.setHeader("Retry-After", "600");
  res.status(status).json(body);
}

function upload(services: Services, logger: Logger): RequestHandler {
  return (req, res) => {
    (async () => {
      const admitted = admit("staff", await viewerOf(req), "media");
      if ("refused" in admitted) {
        res.setHeader("Connection", "close");
        return answer(req, res, admitted.refused.status, { error: admitted.refused.error });
      }
      if (!req.is("multipart/form-data")) return answer(req, res, 415, { error: UPLOAD_MESSAGES.notMultipart });
      const declared = Number(req.headers["content-length"] ?? 0);
      if (declared > MAX_UPLOAD_BYTES + ENVELOPE_BYTES)
        return answer(req, res, 413, { error: UPLOAD_MESSAGES.tooLarge });
      const viewer = admitted.viewer;
      const limit = await services.media.mayUpload(viewer);
      if (!limit.allowed) {
        res.setHeader("Connection", "close");
        return answer(req, res, 429, { error: "Too many uploads. Please wait a few minutes and try again." });
      }
      const form = await readUpload(req);
      if ("status" in form) return answer(req, res, form.status, { error: form.error });
      const { item, created, timings } = await services.media.upload(
        { bytes: form.bytes, fileName: form.fileName, alt: form.alt },
        { id: viewer.id, email: viewer.email },
      );
      answer(req, res, created ? 201 : 200, { item, created, timings });
    })().catch((error: unknown) => {
      if (res.headersSent) return;
      if (isAppError(error)) return answer(req, res, error.status, { error: error.message });
      requestLog(req, logger).error({ error }, "media upload failed");
      answer(req, res, 500, { error: "Something went wrong on our side. Please try again.", reference: req.id });
    });
  };
}

type Upload = { bytes: Buffer; fileName: string; alt: string } | { status: number; error: string };

/**
 * Reads a multipart upload with busboy: one file in the field "file" (at most MAX_UPLOAD_BYTES, counted as it streams:
 * past that the rest is not read), and the optional field "alt". Nothing is stored from here.
 */
function readUpload(req: Request): Promise<Upload> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Upload) => {
      if (settled) return;
      settled = true;
      if ("status" in result) {
        req.unpipe(parser);
        req.resume(); // drained, never kept, until the answer closes the connection
      }
      resolve(result);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: MAX_UPLOAD_BYTES, files: 1, fields: 4, fieldSize: 4096, parts: 6, headerPairs: 20 },
        defParamCharset: "utf8",
      });
    } catch {
      return resolve({ status: 400, error: UNREADABLE_FORM });
    }
    let file: { chunks: Buffer[]; name: string; done: boolean } | undefined;
    let alt = "";
    parser.on("file", (field, stream, info) => {
      if (field !== "file" || file) return void stream.resume();
      const current = { chunks: [] as Buffer[], name: info.filename ?? "", done: false };
      file = current;
      stream.on("data", (chunk: Buffer) => current.chunks.push(chunk));
      stream.on("limit", () => finish({ status: 413, error: UPLOAD_MESSAGES.tooLarge }));
      stream.on("end", () => (current.done = true));
    });
    parser.on("field", (field, value, info) => {
      if (info.valueTruncated) return finish({ status: 400, error: "The alt text is too long." });
      if (isUnstorable(value)) return finish({ status: 400, error: BAD_CHARACTER });
      if (field === "alt") alt = value;
    });
    for (const event of ["partsLimit", "filesLimit", "fieldsLimit"] as const) {
      parser.on(event, () => finish({ status: 400, error: "Send one image and its alt text, nothing else." }));
    }
    parser.on("error", () => finish({ status: 400, error: UNREADABLE_FORM }));
    parser.on("close", () => {
      if (!file || !file.chunks.length) return finish({ status: 400, error: UPLOAD_MESSAGES.noFile });
      if (!file.done) return finish({ status: 400, error: UNREADABLE_FORM });
      finish({ bytes: Buffer.concat(file.chunks), fileName: file.name, alt });
    });
    req.on("aborted", () => finish({ status: 400, error: UNREADABLE_FORM }));
    req.pipe(parser);
  });
}
