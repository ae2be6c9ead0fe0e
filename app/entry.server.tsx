import { Writable } from "node:stream";
import type { EntryContext } from "react-router";
import { ServerRouter } from "react-router";
import { renderToPipeableStream } from "react-dom/server";

/** How long deferred data may take before the render gives up on it (React Router reads this export). */
export const streamTimeout = 5_000;

/**
 * Renders a document whole, into one buffer. The server reads every page whole anyway (its inline scripts are hashed
 * into its Content-Security-Policy, and public pages are cached: server/http/pages.ts), so streaming it would only add
 * stream plumbing between React and that read: React Router's default entry pipes React into a Node stream turned
 * into a web stream, which the server then reads back chunk by chunk. Bots and browsers get the same complete page.
 */
export default function handleRequest(
  request: Request,
  responseStatusCode: number,
  responseHeaders: Headers,
  routerContext: EntryContext,
) {
  // https://httpwg.org/specs/rfc9110.html#HEAD
  if (request.method.toUpperCase() === "HEAD") {
    return new Response(null, { status: responseStatusCode, headers: responseHeaders });
  }
  return new Promise<Response>((resolve, reject) => {
    let status = responseStatusCode;
    let shellRendered = false;
    // Give deferred data its time, then render what has not arrived as its fallback.
    const timeout = setTimeout(() => abort(), streamTimeout + 1000);
    const chunks: Buffer[] = [];
    const document = new Writable({
      write(chunk: Buffer | string, _encoding, callback) {
        chunks.push(typeof chunk === "string" ? Buffer.from(chunk) : chunk);
        callback();
      },
      final(callback) {
        clearTimeout(timeout);
        responseHeaders.set("Content-Type", "text/html");
        resolve(new Response(Buffer.concat(chunks), { headers: responseHeaders, status }));
        callback();
      },
    });
    const { pipe, abort } = renderToPipeableStream(<ServerRouter context={routerContext} url={request.url} />, {
      onShellReady() {
        shellRendered = true;
      },
      onAllReady() {
        pipe(document);
      },
      onShellError(error: unknown) {
        clearTimeout(timeout);
        reject(error);
      },
      onError(error: unknown) {
        status = 500;
        // An error in the shell rejects above and is logged by React Router; one inside a boundary is logged here.
        if (shellRendered) console.error(error);
      },
    });
  });
}
