import busboy from "busboy";
import { PassThrough } from "node:stream";
import { Router, type Request, type RequestHandler, type Response } from "express";
import { MAX_IMPORT_BYTES } from "#domain/imports.ts";
import type { Config } from "../config";
import { isAppError } from "../lib/errors";
import type { Logger } from "../lib/logger";
import type { Services } from "../services";
import { IMPORT_MESSAGES } from "../services/imports";
import { UNREADABLE_FORM } from "./body";
import { admit, attachViewer, viewerOf } from "./guards";
import { sameOriginOnly } from "./origin";
import { PRIVATE_CACHE_CONTROL } from "./pages";
import { requestLog } from "./requests";

/** The back office's imports (a plain form post comes back to the import's page). */
export const IMPORTS_PATH = "/customers/import";
/** The multipart envelope around the file: boundaries and headers. */
const ENVELOPE_BYTES = 64 * 1024;

/**
 * The member import's upload, `POST /api/customers/imports` as multipart/form-data (one CSV file in the field
 * "file"): the file streams to DATA_DIR/imports as busboy reads it, never whole in memory, bounded at
 * MAX_IMPORT_BYTES as the bytes come (the media upload's way, server/http/media.ts). Mounted before the app's general
 * 64 KB body bound, so it applies its own Origin check and viewer; a JSON body (a small file as text) goes on to the
 * route table's call of the same address.
 */
export function importUploadRoutes({
  services,
  config,
  logger,
}: {
  services: Services;
  config: Config;
  logger: Logger;
}): Router {
  const router = Router({ caseSensitive: true, strict: true });
  router.post(
    "/api/customers/imports",
    (req, _res, next) => (req.is("multipart/form-data") ? next() : next("router")),
    sameOriginOnly(config.allowedOrigins),
    attachViewer(services),
    upload(services, logger),
  );
  return router;
}

const wantsPage = (req: Request) => req.accepts(["json", "html"]) === "html";

function answer(req: Request, res: Response, status: number, body: { error: string } | Record<string, unknown>) {
  res.setHeader("Cache-Control", PRIVATE_CACHE_CONTROL);
  res.vary("Cookie");
  if (status === 413) res.setHeader("Connection", "close");
  if (wantsPage(req)) {
    const to =
      status >= 400
        ? `${IMPORTS_PATH}?error=${encodeURIComponent(String(body.error))}`
        : `${IMPORTS_PATH}/${String((body as Record<string, unknown>).id)}`;
    return void res.redirect(303, to);
  }
  res.status(status).json(body);
}

function upload(services: Services, logger: Logger): RequestHandler {
  return (req, res) => {
    (async () => {
      const admitted = admit("staff", await viewerOf(req), "customers");
      if ("refused" in admitted) {
        res.setHeader("Connection", "close");
        return answer(req, res, admitted.refused.status, { error: admitted.refused.error });
      }
      const declared = Number(req.headers["content-length"] ?? 0);
      if (declared > MAX_IMPORT_BYTES + ENVELOPE_BYTES)
        return answer(req, res, 413, { error: IMPORT_MESSAGES.tooLarge });
      const viewer = admitted.viewer;
      const record = await readUpload(req, (file, name) =>
        services.imports.upload(file, name, { id: viewer.id, email: viewer.email }),
      );
      if ("status" in record) return answer(req, res, record.status, { error: record.error });
      answer(req, res, 201, { ...record.value, acknowledged: true, insertedId: record.value.id });
    })().catch((error: unknown) => {
      if (res.headersSent) return;
      if (isAppError(error)) return answer(req, res, error.status, { error: error.message });
      requestLog(req, logger).error({ error }, "member import upload failed");
      answer(req, res, 500, { error: "Something went wrong on our side. Please try again.", reference: req.id });
    });
  };
}

type Read<T> = { value: T } | { status: number; error: string };

/**
 * Reads a multipart upload with busboy: the first file of the field "file" is handed to `store` as a stream while it
 * arrives (busboy counts it against MAX_IMPORT_BYTES; past that the store fails with 413). Other parts are drained.
 */
function readUpload<T>(req: Request, store: (file: PassThrough, name: string) => Promise<T>): Promise<Read<T>> {
  return new Promise((resolve) => {
    let settled = false;
    const finish = (result: Read<T>) => {
      if (settled) return;
      settled = true;
      if ("status" in result) {
        req.unpipe(parser);
        req.resume();
      }
      resolve(result);
    };
    let parser: busboy.Busboy;
    try {
      parser = busboy({
        headers: req.headers,
        limits: { fileSize: MAX_IMPORT_BYTES, files: 1, fields: 4, fieldSize: 1024, parts: 6, headerPairs: 20 },
        defParamCharset: "utf8",
      });
    } catch {
      return resolve({ status: 400, error: UNREADABLE_FORM });
    }
    let storing: Promise<T> | undefined;
    parser.on("file", (field, stream, info) => {
      if (field !== "file" || storing) return void stream.resume();
      const body = new PassThrough();
      stream.on("limit", () => {
        body.destroy(Object.assign(new Error(IMPORT_MESSAGES.tooLarge), { status: 413 }));
        finish({ status: 413, error: IMPORT_MESSAGES.tooLarge });
      });
      stream.pipe(body);
      storing = store(body, info.filename ?? "");
      storing.catch(() => {});
    });
    parser.on("error", () => finish({ status: 400, error: UNREADABLE_FORM }));
    parser.on("close", () => {
      if (!storing) return finish({ status: 400, error: IMPORT_MESSAGES.noFile });
      storing.then(
        (value) => finish({ value }),
        (error: unknown) =>
          isAppError(error)
            ? finish({ status: error.status, error: error.message })
            : finish({ status: 400, error: UNREADABLE_FORM }),
      );
    });
    req.on("aborted", () => finish({ status: 400, error: UNREADABLE_FORM }));
    req.pipe(parser);
  });
}
