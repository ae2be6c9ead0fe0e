import { describe, expect, it } from "vitest";
import { canonicalQuery, matchesEtag, PageCache } from "./page-cache";
import { pageCacheReads } from "./pages";

const page = (text: string, generation = 0) => ({
  base: [["content-type", "text/html"]] as [string, string][],
  body: Buffer.from(text),
  generation,
});

describe("canonicalQuery", () => {
  it("keeps only the parameters a page reads, sorted by name, values in order", () => {
    expect(canonicalQuery("/p?utm_source=a&fbclid=b", [])).toBe("");
    expect(canonicalQuery("/p?b=2&utm=1&a=1&b=1", ["a", "b"])).toBe("?a=1&b=2&b=1");
    expect(canonicalQuery("/p?x=1", ["a"])).toBe("");
    expect(canonicalQuery("/p", ["a"])).toBe("");
  });
});

describe("matchesEtag", () => {
  const etag = 'W/"abc"';
  it("compares weakly, in a list, and accepts *", () => {
    expect(matchesEtag('W/"abc"', etag)).toBe(true);
    expect(matchesEtag('"abc"', etag)).toBe(true);
    expect(matchesEtag('"x", W/"abc"', etag)).toBe(true);
    expect(matchesEtag("*", etag)).toBe(true);
    expect(matchesEtag('"abcd"', etag)).toBe(false);
    expect(matchesEtag(undefined, etag)).toBe(false);
  });
});

describe("pageCacheReads", () => {
  it("reads the route's marker", () => {
    expect(pageCacheReads(null)).toBeUndefined();
    expect(pageCacheReads("something")).toBeUndefined();
    expect(pageCacheReads("anonymous")).toEqual([]);
    expect(pageCacheReads("anonymous; reads=page, q")).toEqual(["page", "q"]);
  });
});

describe("PageCache", () => {
  let generation = 1;
  let clock = 0;
  const cache = new PageCache(
    { generation: () => generation, ttlMs: 1000, maxEntries: 3, now: () => clock },
    (cookie) => (cookie ? undefined : "visitor"),
  );

  it("knows an address once its page was stored, and keys every query string it does not read to one entry", () => {
    expect(cache.keyOf("/a?x=1", "visitor")).toBeUndefined();
    cache.store("visitor", "/a", [], page("a", 1));
    expect(cache.keyOf("/a?utm_source=1&x=2", "visitor")).toBe("visitor /a");
    expect(cache.keyOf("/a", "admin")).toBe("admin /a");
    expect(cache.keyOf("/a", () => undefined)).toBeUndefined();
    expect(cache.fresh("visitor /a")?.bodies.identity.toString()).toBe("a");
  });

  it("stores a page only under its canonical address and only if content did not change meanwhile", () => {
    cache.store("visitor", "/b?utm=1", [], page("b", 1));
    expect(cache.fresh("visitor /b")).toBeUndefined(); // rendered for another address: not kept
    cache.store("visitor", "/b", [], page("b", 0));
    expect(cache.fresh("visitor /b")).toBeUndefined(); // rendered before the last change
    cache.store("visitor", "/b?q=1&utm=2", ["q"], page("b", 1));
    expect(cache.fresh("visitor /b?q=1")).toBeUndefined();
    cache.store("visitor", "/b?q=1", ["q"], page("b q", 1));
    expect(cache.fresh(cache.keyOf("/b?utm=3&q=1", "visitor")!)?.bodies.identity.toString()).toBe("b q");
  });

  it("stays bounded, serves only the current generation within the lifetime, and keeps stale copies", () => {
    for (let i = 0; i < 10; i++) cache.store("visitor", `/c${i}`, [], page(`c${i}`, 1));
    expect(cache.size).toBe(3);
    expect(cache.fresh("visitor /c9")).toBeDefined();
    generation = 2;
    expect(cache.fresh("visitor /c9")).toBeUndefined();
    expect(cache.stale("visitor /c9")).toBeDefined();
    cache.store("visitor", "/c9", [], page("new", 2));
    clock += 1000;
    expect(cache.fresh("visitor /c9")).toBeUndefined();
  });

  it("forgets an entry, stale copy and all", () => {
    cache.store("customer", "/e", [], page("e", generation));
    generation++;
    expect(cache.stale("customer /e")).toBeDefined();
    cache.forget("customer /e");
    expect(cache.stale("customer /e")).toBeUndefined();
    expect(cache.knows("/e")).toBe(true);
  });

  it("compresses a page once and tags it by its bytes", () => {
    const big = "<p>hello</p>".repeat(500);
    const entry = cache.store("visitor", "/d", [], page(big, 2));
    expect(entry.bodies.gzip.length).toBeLessThan(big.length / 10);
    expect(entry.bodies.br.length).toBeLessThan(entry.bodies.gzip.length);
    expect(cache.store("admin", "/d", [], page(big, 2)).etag).toBe(entry.etag);
    expect(cache.store("visitor", "/d", [], page(`${big}!`, 2)).etag).not.toBe(entry.etag);
  });
});
