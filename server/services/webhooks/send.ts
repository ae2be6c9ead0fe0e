import http from "node:http";
import https from "node:https";
import { isIP } from "node:net";
import { Webhook } from "standardwebhooks";
import { ERROR_MAX, SNIPPET_MAX } from "#domain/webhooks.ts";
import { guardedLookup, hostOf, isBlockedAddress, REFUSED } from "./addresses";

/** One attempt's result: the answer's status (null: none came) and, for a failure, what went wrong in words. */
export interface AttemptResult {
  status: number | null;
  /** A short, bounded account of a failure: the error, or the status and the start of the answer's body. */
  error: string | null;
}

/** What an attempt sends: the Standard Webhooks message (its id, the moment, the body) to an address. */
export interface Message {
  url: string;
  secret: string;
  id: string;
  body: string;
  at: Date;
}

const clip = (text: string, max: number) => (text.length > max ? `${text.slice(0, max - 1)}…` : text);

/** The three signed headers of a message (Standard Webhooks: id, seconds since 1970, `v1,<base64 HMAC>`). */
export function signedHeaders(m: Pick<Message, "secret" | "id" | "body" | "at">): Record<string, string> {
  return {
    "webhook-id": m.id,
    "webhook-timestamp": String(Math.floor(m.at.getTime() / 1000)),
    "webhook-signature": new Webhook(m.secret).sign(m.id, m.at, m.body),
  };
}

/** Words for the network errors a receiver's admin can act on. */
function networkError(error: NodeJS.ErrnoException, timeoutMs: number): string {
  switch (error.code) {
    case "EBLOCKED":
      return REFUSED;
    case "ETIMEDOUT":
      return `No answer within ${timeoutMs / 1000} seconds.`;
    case "ECONNREFUSED":
      return "The connection was refused.";
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return "The host name cannot be found.";
    case "ECONNRESET":
      return "The connection was closed before an answer came.";
    default:
      return error.message || String(error.code ?? "The request failed.");
  }
}

/**
 * POSTs one signed message and reads its answer's status and at most the first few hundred bytes of its body (the
 * rest is dropped): no redirect followed (a 3xx is an answer like any other), `timeoutMs` for the whole exchange, and
 * the address checked by the guard at this very connection (unless `allowPrivate`).
 */
export function attempt(m: Message, options: { timeoutMs: number; allowPrivate: boolean }): Promise<AttemptResult> {
  const url = new URL(m.url);
  const host = hostOf(url);
  if (!options.allowPrivate && isIP(host) && isBlockedAddress(host))
    return Promise.resolve({ status: null, error: REFUSED });
  if (url.protocol !== "https:" && !(options.allowPrivate && url.protocol === "http:"))
    return Promise.resolve({ status: null, error: "The address must start with https://" });
  const transport = url.protocol === "https:" ? https : http;
  return new Promise((resolve) => {
    let settled = false;
    const done = (r: AttemptResult) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      resolve(r);
    };
    const req = transport.request(
      url,
      {
        method: "POST",
        headers: {
          "content-type": "application/json",
          "user-agent": "Atelier-Webhooks/1",
          ...signedHeaders(m),
        },
        lookup: guardedLookup(options.allowPrivate) as never,
        agent: false,
      },
      (res) => {
        const status = res.statusCode ?? 0;
        let snippet = "";
        res.setEncoding("utf8");
        res.on("data", (chunk: string) => {
          if (snippet.length < SNIPPET_MAX) snippet += chunk;
          if (snippet.length >= SNIPPET_MAX) res.destroy();
        });
        const finish = () => {
          const ok = status >= 200 && status < 300;
          const text = snippet.replace(/\s+/g, " ").trim().slice(0, SNIPPET_MAX);
          const why =
            status >= 300 && status < 400
              ? `Answered ${status} (a redirect, not followed)`
              : `Answered ${status}${text ? `: ${text}` : ""}`;
          done({ status, error: ok ? null : clip(why, ERROR_MAX) });
        };
        res.on("end", finish);
        res.on("close", finish);
        res.on("error", finish);
      },
    );
    const timer = setTimeout(() => {
      const error: NodeJS.ErrnoException = new Error("timeout");
      error.code = "ETIMEDOUT";
      req.destroy(error);
    }, options.timeoutMs);
    req.on("error", (error: NodeJS.ErrnoException) =>
      done({ status: null, error: clip(networkError(error, options.timeoutMs), ERROR_MAX) }),
    );
    req.end(m.body);
  });
}
