import { createServer, type Server } from "node:http";
import type { AddressInfo } from "node:net";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { Webhook } from "standardwebhooks";
import { attempt, signedHeaders } from "./send";

const SECRET = `whsec_${Buffer.alloc(32, 3).toString("base64")}`;
let server: Server;
let base = "";
let redirectedTo = 0;

beforeAll(async () => {
  server = createServer((req, res) => {
    req.resume();
    req.on("end", () => {
      if (req.url === "/moved") return res.writeHead(302, { location: "/elsewhere" }).end();
      if (req.url === "/elsewhere") {
        redirectedTo++;
        return res.writeHead(200).end();
      }
      if (req.url === "/big") return res.writeHead(500).end("x".repeat(100_000));
      if (req.url === "/hang") return;
      res.writeHead(204).end();
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
});
afterAll(() => {
  server.closeAllConnections();
  server.close();
});

const message = (path: string) => ({ url: base + path, secret: SECRET, id: "msg_1", body: '{"a":1}', at: new Date() });
const local = { timeoutMs: 300, allowPrivate: true };

describe("signedHeaders", () => {
  it("signs so that the library's own verifier accepts the body, and refuses a changed one", () => {
    const headers = signedHeaders(message("/"));
    expect(new Webhook(SECRET).verify('{"a":1}', headers)).toEqual({ a: 1 });
    expect(() => new Webhook(SECRET).verify('{"a":2}', headers)).toThrow();
    expect(headers["webhook-id"]).toBe("msg_1");
  });
});

describe("attempt", () => {
  it("delivers on a 2xx", async () => {
    expect(await attempt(message("/ok"), local)).toEqual({ status: 204, error: null });
  });
  it("does not follow a redirect", async () => {
    const r = await attempt(message("/moved"), local);
    expect(r).toEqual({ status: 302, error: "Answered 302 (a redirect, not followed)" });
    expect(redirectedTo).toBe(0);
  });
  it("keeps only the start of an answer's body", async () => {
    const r = await attempt(message("/big"), local);
    expect(r.status).toBe(500);
    expect(r.error!.length).toBeLessThan(250);
  });
  it("gives up on a receiver that does not answer in time", async () => {
    expect(await attempt(message("/hang"), local)).toEqual({ status: null, error: "No answer within 0.3 seconds." });
  });
  it("refuses this machine without the local-testing setting, and http:// too", async () => {
    const strict = { timeoutMs: 300, allowPrivate: false };
    expect((await attempt(message("/ok"), strict)).error).toMatch(/private, loopback or link-local/);
    expect((await attempt({ ...message("/ok"), url: "http://example.invalid/" }, strict)).error).toBe(
      "The address must start with https://",
    );
    expect((await attempt({ ...message("/ok"), url: "https://localhost:1/" }, strict)).error).toMatch(
      /private, loopback or link-local/,
    );
  });
});
