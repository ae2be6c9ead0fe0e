import { createHash } from "node:crypto";
import type { IncomingMessage, ServerResponse } from "node:http";
import { brotliCompressSync, constants as zlib, gzipSync } from "node:zlib";
import { countPageCache } from "../lib/metrics";
import type { PageRole } from "../services/page-role";

/**
 * The page cache (decisions 007 and 025): whole rendered pages, one per role variant, address and content generation,
 * each stored with its complete header block (status, security headers, CSP with the page's script hashes, type,
 * ETag, Vary) and its identity, gzip and brotli bodies, all made once. A hit is then a map lookup and one write.
 *
 * Keys ignore every query parameter a page does not declare it reads (utm_*, fbclid, anything unknown): they share
 * the entry of the address without them, so random query strings neither bypass nor grow the cache.
 */

export type CacheOutcome = "HIT" | "MISS" | "STALE";
type Encoding = "identity" | "gzip" | "br";

export interface CachedPage {
  generation: number;
  storedAt: number;
  etag: string;
  bodies: Record<Encoding, Buffer>;
  /** Every header but X-Cache, Content-Length and Content-Encoding, in the order a miss sent them. */
  base: [string, string][];
  /** Flat header lists for writeHead, made when first needed: `${outcome} ${encoding}` and `${outcome} 304`. */
  heads: Map<string, string[]>;
}

export interface PageCacheOptions {
  /** Changes whenever content changes; entries of an older generation are never served fresh. */
  generation: () => number;
  ttlMs: number;
  maxEntries?: number;
  now?: () => number;
}

const VARY = "Accept-Encoding, Cookie";
/** Headers never frozen into an entry: per response, or written from the entry's own fields. */
const NOT_STORED = new Set([
  "x-cache",
  "x-request-id",
  "set-cookie",
  "content-length",
  "content-encoding",
  "date",
  "etag",
  "vary",
]);

export class PageCache {
  private readonly entries = new Map<string, CachedPage>();
  /** The query parameters each cached address reads (learned from its response), by path. */
  private readonly reads = new Map<string, readonly string[]>();
  private readonly max: number;
  private readonly now: () => number;

  constructor(
    private readonly options: PageCacheOptions,
    /** The variant a request's cookies prove without the database; undefined when they prove none. */
    private readonly roleOf: (cookieHeader: string | undefined) => PageRole | undefined,
  ) {
    this.max = options.maxEntries ?? 200;
    this.now = options.now ?? Date.now;
  }

  get size() {
    return this.entries.size;
  }

  /**
   * Answers a request from the cache if it can, before any other layer: a GET or HEAD of a cached address, for a
   * role its cookies prove. Returns false (having written nothing) otherwise.
   */
  serve(req: IncomingMessage, res: ServerResponse): boolean {
    const method = req.method;
    if ((method !== "GET" && method !== "HEAD") || req.headers.authorization !== undefined) return false;
    const key = this.keyOf(req.url ?? "/", () => this.roleOf(req.headers.cookie));
    const entry = key === undefined ? undefined : this.fresh(key);
    if (!entry) return false;
    writePage(req, res, entry, "HIT", undefined, false);
    return true;
  }

  /** Whether an address (path and query) is known to the cache: its page was stored before and said what it reads. */
  knows(url: string): boolean {
    return this.reads.has(pathOf(url));
  }

  /** The address a page is rendered and stored for: the path and only the query parameters it reads, sorted. */
  canonical(url: string): string | undefined {
    const path = pathOf(url);
    const reads = this.reads.get(path);
    return reads && path + canonicalQuery(url, reads);
  }

  /** The cache key of a request for `role`; undefined when the address is not known yet or the role is not. */
  keyOf(url: string, role: PageRole | undefined | (() => PageRole | undefined)): string | undefined {
    const path = pathOf(url);
    const reads = this.reads.get(path);
    if (!reads) return undefined;
    const r = typeof role === "function" ? role() : role;
    return r && `${r} ${path}${canonicalQuery(url, reads)}`;
  }

  /** An entry that may be served: of the current generation and within its lifetime. Kept most recently used. */
  fresh(key: string): CachedPage | undefined {
    const entry = this.entries.get(key);
    if (!entry || entry.generation !== this.options.generation() || this.now() - entry.storedAt >= this.options.ttlMs)
      return undefined;
    this.entries.delete(key);
    this.entries.set(key, entry);
    return entry;
  }

  /** Any entry, however old: the copy served while the database is away. */
  stale(key: string): CachedPage | undefined {
    return this.entries.get(key);
  }

  generation(): number {
    return this.options.generation();
  }

  /**
   * Drops an entry: its address was rendered again for this role and the page no longer says it is the same for all
   * of them (an article that now has a members' part) or no longer answers 200 (taken down). Its old copy must not be
   * served stale while the database is away.
   */
  forget(key: string): void {
    this.entries.delete(key);
  }

  /**
   * Learns what a page reads of the query string (from its response), then stores it under `role` if it was
   * rendered for its canonical address and content did not change meanwhile. Returns the entry, stored or not.
   */
  store(
    role: PageRole,
    url: string,
    reads: readonly string[],
    page: { base: [string, string][]; body: Buffer; generation: number },
  ): CachedPage {
    const path = pathOf(url);
    this.reads.delete(path);
    this.reads.set(path, [...reads].sort());
    while (this.reads.size > this.max) this.reads.delete(this.reads.keys().next().value!);
    const entry = cachedPage(page.base, page.body, page.generation, this.now());
    const key = this.keyOf(url, role)!;
    if (page.generation === this.options.generation() && this.canonical(url) === url) {
      this.entries.delete(key);
      this.entries.set(key, entry);
      while (this.entries.size > this.max) this.entries.delete(this.entries.keys().next().value!);
    }
    return entry;
  }
}

const pathOf = (url: string) => {
  const q = url.indexOf("?");
  return q === -1 ? url : url.slice(0, q);
};

/** `?a=1&b=2` of only the parameters in `reads` (sorted by name, values in their order), or "". */
export function canonicalQuery(url: string, reads: readonly string[]): string {
  const q = url.indexOf("?");
  if (q === -1 || reads.length === 0) return "";
  const kept = [...new URLSearchParams(url.slice(q + 1))].filter(([name]) => reads.includes(name));
  if (kept.length === 0) return "";
  kept.sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0));
  return `?${new URLSearchParams(kept).toString()}`;
}

/** A page's complete answer, made once: compressed bodies and its ETag. */
export function cachedPage(base: [string, string][], body: Buffer, generation: number, storedAt: number): CachedPage {
  const etag = `W/"${createHash("sha256").update(body).digest("base64url").slice(0, 27)}"`;
  const bodies: Record<Encoding, Buffer> = { identity: body, gzip: body, br: body };
  if (body.length > 1024) {
    bodies.gzip = gzipSync(body, { level: 9 });
    // Quality 8: about 3 ms for the landing page; 10 and 11 block the event loop 100 ms and more for 3-9 % fewer bytes.
    bodies.br = brotliCompressSync(body, {
      params: { [zlib.BROTLI_PARAM_QUALITY]: 8, [zlib.BROTLI_PARAM_SIZE_HINT]: body.length },
    });
  }
  return {
    generation,
    storedAt,
    etag,
    bodies,
    base: base.filter(([k]) => !NOT_STORED.has(k)),
    heads: new Map(),
  };
}

/** The headers of a response as a page handler collected them: lower-case names, values as strings. */
export function headerList(headers: Iterable<[string, string | number | readonly string[] | undefined]>) {
  const list: [string, string][] = [];
  for (const [k, v] of headers) {
    if (v === undefined) continue;
    const name = k.toLowerCase();
    if (Array.isArray(v)) for (const one of v) list.push([name, String(one)]);
    else list.push([name, String(v)]);
  }
  return list;
}

/** The encoding sent to a request: brotli, else gzip, else none (a body too small to compress is sent as is). */
function encodingFor(req: IncomingMessage, page: CachedPage): Encoding {
  if (page.bodies.gzip === page.bodies.identity) return "identity";
  const accept = req.headers["accept-encoding"];
  if (!accept) return "identity";
  return /\bbr\b/.test(accept) ? "br" : /\bgzip\b/.test(accept) ? "gzip" : "identity";
}

/** Whether If-None-Match names this entry (weak comparison, as for GET). */
export function matchesEtag(ifNoneMatch: string | undefined, etag: string): boolean {
  if (!ifNoneMatch) return false;
  if (ifNoneMatch.trim() === "*") return true;
  const opaque = etag.slice(2);
  return ifNoneMatch.split(",").some((tag) => {
    const t = tag.trim();
    return (t.startsWith("W/") ? t.slice(2) : t) === opaque;
  });
}

function headsOf(page: CachedPage, outcome: CacheOutcome, variant: Encoding | "304"): string[] {
  const id = `${outcome} ${variant}`;
  let flat = page.heads.get(id);
  if (flat) return flat;
  flat = [];
  for (const [k, v] of page.base) {
    // A 304 describes the stored answer without its body.
    if (variant === "304" && (k === "content-type" || k === "content-language")) continue;
    flat.push(k, v);
  }
  flat.push("etag", page.etag, "vary", VARY, "x-cache", outcome);
  if (variant !== "304") {
    if (variant !== "identity") flat.push("content-encoding", variant);
    flat.push("content-length", String(page.bodies[variant].length));
  }
  page.heads.set(id, flat);
  return flat;
}

/**
 * Writes a cached page: 304 when If-None-Match names it, else the body in the best accepted encoding (HEAD: headers
 * only). Headers set earlier on `res` (by middleware on a miss) are replaced: the entry carries every header a page
 * answer has, so a hit and a miss send the same ones. The additions: the request's id (X-Request-Id, when the access
 * log gave it one) and `setCookie` (a role cookie). Counted in the page-cache metric by outcome.
 */
export function writePage(
  req: IncomingMessage,
  res: ServerResponse,
  page: CachedPage,
  outcome: CacheOutcome,
  setCookie?: string,
  /** Behind Express: headers were set by middleware (the entry has them all); before it there are none to clear. */
  clear = true,
) {
  if (res.destroyed || res.writableEnded) return;
  countPageCache(outcome);
  if (clear) for (const name of res.getHeaderNames()) res.removeHeader(name);
  if (setCookie) res.setHeader("set-cookie", setCookie);
  const id = (req as { id?: unknown }).id;
  if (matchesEtag(req.headers["if-none-match"], page.etag)) {
    res.writeHead(304, withId(headsOf(page, outcome, "304"), id));
    res.end();
    return;
  }
  const encoding = encodingFor(req, page);
  res.writeHead(200, withId(headsOf(page, outcome, encoding), id));
  res.end(req.method === "HEAD" ? undefined : page.bodies[encoding]);
}

/** The entry's flat header list and the request's id; the list stays the entry's (writeHead copies it at once). */
const withId = (flat: string[], id: unknown) => (id === undefined ? flat : [...flat, "x-request-id", String(id)]);
