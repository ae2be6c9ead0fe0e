import { readdirSync, readFileSync } from "node:fs";
import path from "node:path";
import { SMTPServer } from "smtp-server";

export interface ReceivedMail {
  to: string[];
  raw: string;
  subject: string;
}

/** A real SMTP listener on loopback that keeps what it receives; while `failing`, it refuses every recipient. */
export async function startSmtpServer() {
  const received: ReceivedMail[] = [];
  const state = { failing: false };
  const server = new SMTPServer({
    authOptional: true,
    disabledCommands: ["STARTTLS"],
    logger: false,
    onRcptTo(address, session, callback) {
      if (!state.failing) return callback();
      const error = Object.assign(new Error("Mailbox temporarily unavailable"), { responseCode: 451 });
      callback(error);
    },
    onData(stream, session, callback) {
      const chunks: Buffer[] = [];
      stream.on("data", (c: Buffer) => chunks.push(c));
      stream.on("end", () => {
        const raw = Buffer.concat(chunks).toString("utf8");
        received.push({ to: session.envelope.rcptTo.map((r) => r.address), raw, subject: subjectOf(raw) });
        callback();
      });
    },
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const port = (server.server.address() as { port: number }).port;
  return {
    url: `smtp://127.0.0.1:${port}`,
    received,
    /** Refuse (451) or accept recipients from now on. */
    setFailing(failing: boolean) {
      state.failing = failing;
    },
    close: () => new Promise<void>((resolve) => server.close(() => resolve())),
  };
}

export function subjectOf(raw: string): string {
  return /^Subject: (.*)$/m.exec(raw)?.[1]?.trim() ?? "";
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
