import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
}

/**
 * A real SMTP listener on loopback that keeps what it receives; while `failing`, it refuses every recipient; while
 * `stalled`, it takes a message's data and never answers (a send that hangs, counted in `stalls`).
 */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const state = { failing: false, stalled: false, stalls: 0 };
  /** Addresses refused for good (550: no such mailbox). */
  const refused = new Set<string>();
  /** When each refused recipient was refused (ms since the epoch). */
  const refusedAt: number[] = [];
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, session, callback) {
      if (refused.has(address.address.toLowerCase())) {
        return callback(Object.assign(new Error("No such mailbox"), { responseCode: 550 }));
      }
      if (!state.failing) return callback();
      refusedAt.push(Date.now());
      const error = Object.assign(new Error("Mailbox temporarily unavailable"), { responseCode: 451 });
      callback(error);
    },
    onData(stream, session, callback) {
      if (state.stalled) {
        state.stalls++;
        stream.resume();
        return;
      }
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, subject: subjectOf(raw) });
        callback();
      });
    },
  });
  // A client killed mid-conversation (the fault tests' kill -9) resets its socket: smtp-server reports it as an
  // 'error' event, which unheard would be an uncaught exception in the test run. The listener goes on.
  server.on("error", () => {});
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    refusedAt,
    /** Refuse (451) or accept recipients from now on. */
    setFailing(failing: boolean) {
      state.failing = failing;
    },
    /** Take messages and never answer (true), or answer again (false); `stalls()` counts the messages held. */
    setStalled(stalled: boolean) {
      state.stalled = stalled;
    },
    stalls: () => state.stalls,
    /** Refuse these addresses for good (550) from now on. */
    refuse(...addresses: string[]) {
      for (const a of addresses) refused.add(a.toLowerCase());
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

/**
 * A message's subject as people read it: its folded lines joined and its MIME encoded words (RFC 2047, which a subject
 * with "£" or "é" is sent as) decoded.
 */
export function subjectOf(raw: string): string {
  const header = /^Subject: (.*(?:\r?\n[ \t].*)*)/m.exec(raw)?.[1] ?? "";
  const bytes = (text: string) =>
    Buffer.from(
      text.replace(/_/g, " ").replace(/=([0-9A-F]{2})/gi, (_, h: string) => String.fromCharCode(parseInt(h, 16))),
      "latin1",
    );
  return header
    .replace(/\r?\n[ \t]+/g, " ")
    .replace(/(\?=)\s+(?==\?)/g, "$1")
    .replace(/=\?utf-8\?([qb])\?([^?]*)\?=/gi, (_, kind: string, text: string) =>
      (kind.toUpperCase() === "B" ? Buffer.from(text, "base64") : bytes(text)).toString("utf8"),
    )
    .trim();
}

/** The first http(s) link of a message (quoted-printable soft breaks and escapes undone). */
export function linkOf(raw: string): string {
  const decoded = raw
    .replace(/=\r?\n/g, "")
    .replace(/=([0-9A-F]{2})/g, (_, h: string) => String.fromCharCode(parseInt(h, 16)));
  const link = /https?:\/\/[^\s"<>]+/.exec(decoded)?.[0];
  if (!link) throw new Error(`No link in the message:\n${raw}`);
  return link;
}

/** The messages written to DATA_DIR/outbox, oldest first. */
export function outbox(dataDir: string): ReceivedMail[] {
  const dir = path.join(dataDir, "outbox");
  let files: string[];
  try {
    files = readdirSync(dir).sort();
  } catch {
    return [];
  }
  return files.map((f) => {
    const raw = readFileSync(path.join(dir, f), "utf8");
    return { to: [/^To: (.*)$/m.exec(raw)?.[1]?.trim() ?? ""], raw, subject: subjectOf(raw) };
  });
}
