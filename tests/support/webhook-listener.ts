import { createServer, type IncomingHttpHeaders } from "node:http";
import type { AddressInfo } from "node:net";
import { Webhook } from "standardwebhooks";

export interface ReceivedHook {
  path: string;
  headers: IncomingHttpHeaders;
  body: string;
}

/**
 * A real HTTP listener on this machine that receives webhooks: it keeps every request and answers each with the next
 * status given for its path (then 200), so tests play a receiver that fails, recovers or is gone. `verified` checks a
 * request with the Standard Webhooks library's own verifier and returns the parsed payload.
 */
export async function startWebhookListener() {
  const received: ReceivedHook[] = [];
  const answers = new Map<string, number[]>();
  /** Paths whose requests are never answered (a receiver that hangs). */
  const hanging = new Set<string>();
  const server = createServer((req, res) => {
    const chunks: Buffer[] = [];
    req.on("data", (c: Buffer) => chunks.push(c));
    req.on("end", () => {
      received.push({ path: req.url ?? "/", headers: req.headers, body: Buffer.concat(chunks).toString("utf8") });
      if (hanging.has(req.url ?? "/")) return;
      const status = answers.get(req.url ?? "/")?.shift() ?? 200;
      res.writeHead(status, { "content-type": "text/plain" });
      res.end(status >= 300 ? `failing on purpose (${status})` : "ok");
    });
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const url = `http://127.0.0.1:${(server.address() as AddressInfo).port}`;
  return {
    url,
    received,
    /** The statuses the next requests to `path` get, in order (then 200). */
    answer(path: string, ...statuses: number[]) {
      answers.set(path, [...(answers.get(path) ?? []), ...statuses]);
    },
    /** Requests to `path` get no answer at all. */
    hang(path: string) {
      hanging.add(path);
    },
    verified(hook: ReceivedHook, secret: string): { type: string; timestamp: string; data: Record<string, unknown> } {
      return new Webhook(secret).verify(hook.body, hook.headers as Record<string, string>) as never;
    },
    ofType(type: string) {
      return received.filter((r) => (JSON.parse(r.body) as { type: string }).type === type);
    },
    close: () =>
      new Promise<void>((resolve) => {
        server.close(() => resolve());
        server.closeAllConnections();
      }),
  };
}
