import { writeSync } from "node:fs";
import pino, { type DestinationStream, type LoggerOptions } from "pino";
import pretty from "pino-pretty";

/**
 * The app's logger is pino (decision 034): `logger.info({ fields }, "message")`, one JSON line per event in production,
 * readable lines (pino-pretty) in development and in a terminal. Secrets are removed by configuration (`redact`),
 * whatever a call site passes.
 */
export type Logger = Omit<pino.Logger, LevelName> & Record<LevelName, LogFn>;
type LevelName = "trace" | "debug" | "info" | "warn" | "error" | "fatal";
/**
 * pino's own call shapes, `(fields, message)` and `(message)`, and not its `(message, ...format arguments)`: that one
 * would take the old `("message", { fields })` and drop the fields without a word.
 */
interface LogFn {
  (fields: object, message?: string): void;
  (message: string): void;
}
export type Level = "debug" | "info" | "warn" | "error" | "silent";
export type LogFormat = "json" | "pretty";

/**
 * Fields never written as they are: passwords, tokens, cookies, authorization headers, the links mails carry (a reset
 * or confirmation link is a credential), connection strings. At the top level of a line and inside the objects lines
 * carry (an error, a request or response and their headers, a body); the censor keeps the key, so a line still says
 * the field was there. Every path starts with a named key: a leading `*` would make pino's redaction walk every line
 * (measured: 20-45 µs a line against 1-2, a quarter of a page-cache hit's time).
 */
const SECRET_KEYS = [
  "password",
  "newPassword",
  "currentPassword",
  "token",
  "secret",
  "authSecret",
  "link",
  "cookie",
  "authorization",
  "set-cookie",
  "connectionString",
  "databaseUrl",
  "smtpUrl",
];
const HEADER_KEYS = ["cookie", "authorization", "set-cookie"];
const CONTAINERS = [
  "error",
  "err",
  "cause",
  "req",
  "res",
  "request",
  "response",
  "body",
  "data",
  "user",
  "query",
  "params",
  "config",
  "mail",
  "options",
];
const member = (key: string) => (/^[A-Za-z_]\w*$/.test(key) ? `.${key}` : `["${key}"]`);
const at = (...parts: string[]) => parts.map(member).join("").replace(/^\./, "");
export const REDACTED_PATHS = [
  ...SECRET_KEYS.map((key) => at(key)),
  ...CONTAINERS.flatMap((container) => SECRET_KEYS.map((key) => at(container, key))),
  ...HEADER_KEYS.map((key) => at("headers", key)),
  ...CONTAINERS.flatMap((container) => HEADER_KEYS.map((key) => at(container, "headers", key))),
  // What an error object carries along (a client's config, the request and response it failed on, its cause).
  ...["error", "err"].flatMap((error) =>
    ["cause", "config", "request", "response", "body", "data", "options"].flatMap((inner) =>
      SECRET_KEYS.map((key) => at(error, inner, key)),
    ),
  ),
];
export const CENSOR = "[Redacted]";

/** pino's options, the same for every destination: levels by name, ISO times, errors under `error`, the redaction. */
export function loggerOptions(level: Level): LoggerOptions {
  return {
    level,
    base: { pid: process.pid },
    timestamp: isoTime,
    formatters: { level: (label) => ({ level: label }) },
    // Call sites pass an error as `{ error }`: it is serialised with its type, message, stack and cause.
    errorKey: "error",
    serializers: { error: pino.stdSerializers.errWithCause, err: pino.stdSerializers.errWithCause },
    redact: { paths: REDACTED_PATHS, censor: CENSOR },
  };
}

/** ISO times, made once per millisecond: a busy worker writes several lines in each (pino's own makes a Date each). */
let lastMs = 0;
let lastTime = "";
function isoTime(): string {
  const now = Date.now();
  if (now !== lastMs) {
    lastMs = now;
    lastTime = `,"time":"${new Date(now).toISOString()}"`;
  }
  return lastTime;
}

/** JSON is written in batches of at least this many bytes, and at least this often. */
const BATCH_BYTES = 8192;
const BATCH_MS = 250;

/**
 * The process's logger. JSON goes to stdout in batches (BATCH_BYTES, or whatever BATCH_MS gathered; all of it on exit):
 * written a line at a time, the access log cost a page-cache hit 40 % more CPU (one write per line).
 * A process killed outright loses at most its last quarter second. Readable output is written at once, in order with
 * the rest of the terminal's output (the first start's administrator block). `destination` is for tests.
 */
export function createLogger(
  level: Level = "info",
  options: { format?: LogFormat; destination?: DestinationStream } = {},
): Logger {
  const format = options.format ?? (process.stdout.isTTY ? "pretty" : "json");
  const destination =
    options.destination ??
    (format === "pretty"
      ? pretty({
          colorize: Boolean(process.stdout.isTTY),
          sync: true,
          translateTime: "SYS:HH:MM:ss.l",
          ignore: "pid,hostname",
          singleLine: true,
        })
      : batched());
  return pino(loggerOptions(level), destination) as Logger;
}

/**
 * Lines gathered in memory and handed to pino's asynchronous stdout writer (sonic-boom) BATCH_BYTES at a time: given
 * line by line, sonic-boom measures its whole pending buffer at each one (Buffer.byteLength), 0.8 µs a line at 8 KB.
 */
function batched(): DestinationStream {
  const stdout = pino.destination({ dest: 1, sync: false });
  let lines: string[] = [];
  let size = 0;
  const flush = () => {
    if (lines.length === 0) return;
    stdout.write(lines.join(""));
    lines = [];
    size = 0;
  };
  setInterval(flush, BATCH_MS).unref();
  // Whatever is left is written at once on the way out (pino has flushed the writer itself before this).
  process.on("exit", () => {
    try {
      stdout.flushSync();
      if (lines.length) writeSync(1, lines.join(""));
    } catch {
      /* stdout is gone: nothing more can be said */
    }
  });
  return {
    write(line: string) {
      lines.push(line);
      size += line.length;
      if (size >= BATCH_BYTES) flush();
    },
  };
}

/** A logger that writes nothing (tests, tools that print their own output). */
export const silentLogger: Logger = pino({ level: "silent" });
