import type { IncomingMessage } from "node:http";
import type { ServerBuild } from "react-router";
import { describe, expect, it } from "vitest";
import { pagePatterns, requestIdFor } from "./requests";

const request = (remoteAddress: string, id?: string) =>
  ({
    headers: id === undefined ? {} : { "x-request-id": id },
    socket: { remoteAddress },
  }) as unknown as IncomingMessage;
const trustLoopback = (address: string) => address === "127.0.0.1";

describe("a request's id", () => {
  it("is the trusted proxy's X-Request-Id when it is well formed", () => {
    expect(requestIdFor(request("127.0.0.1", "3f2a9c1e-6b7d-4e1f-9a0b-2c3d4e5f6a7b"), trustLoopback)).toBe(
      "3f2a9c1e-6b7d-4e1f-9a0b-2c3d4e5f6a7b",
    );
    expect(requestIdFor(request("127.0.0.1", "Root=1-67891233-abcdef012345678912345678"), trustLoopback)).toBe(
      "Root=1-67891233-abcdef012345678912345678",
    );
  });

  it("is made here when the sender is not a trusted proxy, or the id is malformed or too long", () => {
    const made = /^[A-Za-z0-9_-]{8}-[0-9a-z]+$/;
    expect(requestIdFor(request("203.0.113.9", "forged-by-a-client"), trustLoopback)).toMatch(made);
    for (const bad of ["", "has space", '"quoted"', "<script>", "a".repeat(129), "line\nbreak"])
      expect(requestIdFor(request("127.0.0.1", bad), trustLoopback), bad).toMatch(made);
    expect(requestIdFor(request("127.0.0.1", "a".repeat(128)), trustLoopback)).toBe("a".repeat(128));
  });

  it("is new for every request", () => {
    const ids = new Set(Array.from({ length: 1000 }, () => requestIdFor(request("127.0.0.1"), () => false)));
    expect(ids.size).toBe(1000);
  });
});

/** The route manifest of a build: the shape React Router's compiler writes (parent ids, relative paths). */
function build(): ServerBuild {
  const route = (id: string, parentId: string | undefined, path?: string, index?: boolean) => ({
    id,
    parentId,
    path,
    index,
    module: {},
  });
  return {
    routes: {
      root: route("root", undefined, ""),
      home: route("home", "root", undefined, true),
      item: route("item", "root", "item/:id"),
      confirm: route("confirm", "root", "newsletter/confirm/:token"),
      admin: route("admin", "root"),
      setting: route("setting", "admin", "setting"),
      payment: route("payment", "admin", "admin/payment-status/:id"),
      missing: route("missing", "root", "*"),
    },
  } as unknown as ServerBuild;
}

describe("the route pattern of a page address", () => {
  const patternOf = pagePatterns(build());

  it("is the matched routes' paths, never the address's own values", () => {
    expect(patternOf("/")).toBe("/");
    expect(patternOf("/item/42")).toBe("/item/:id");
    expect(patternOf("/newsletter/confirm/C0nf1rmT0k3n")).toBe("/newsletter/confirm/:token");
    expect(patternOf("/setting")).toBe("/setting");
    expect(patternOf("/admin/payment-status/7")).toBe("/admin/payment-status/:id");
    expect(patternOf("/no/such/page")).toBe("/*");
    expect(patternOf("/%E0%A4%A")).toBe("/*");
  });

  it("marks data requests and knows the manifest", () => {
    expect(patternOf("/item/42.data")).toBe("/item/:id.data");
    expect(patternOf("/_root.data")).toBe("/.data");
    expect(patternOf("/__manifest")).toBe("/__manifest");
  });
});
