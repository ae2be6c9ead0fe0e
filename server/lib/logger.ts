/** A small structured logger: one JSON line per event in production, readable lines in a terminal. */
export type Level = "debug" | "info" | "warn" | "error";
const order: Record<Level, number> = { debug: 10, info: 20, warn: 30, error: 40 };

export interface Logger {
  debug(msg: string, fields?: Record<string, unknown>): void;
  info(msg: string, fields?: Record<string, unknown>): void;
  warn(msg: string, fields?: Record<string, unknown>): void;
  error(msg: string, fields?: Record<string, unknown>): void;
}

export function createLogger(level: Level = "info", json = !process.stdout.isTTY): Logger {
  const write = (l: Level, msg: string, fields?: Record<string, unknown>) => {
    if (order[l] < order[level]) return;
    const out = l === "error" || l === "warn" ? process.stderr : process.stdout;
    if (json) {
      out.write(JSON.stringify({ time: new Date().toISOString(), level: l, msg, ...serialise(fields) }) + "\n");
    } else {
      const extra = fields && Object.keys(fields).length ? " " + JSON.stringify(serialise(fields)) : "";
      out.write(`${l.toUpperCase().padEnd(5)} ${msg}${extra}\n`);
    }
  };
  return {
    debug: (m, f) => write("debug", m, f),
    info: (m, f) => write("info", m, f),
    warn: (m, f) => write("warn", m, f),
    error: (m, f) => write("error", m, f),
  };
}

function serialise(fields?: Record<string, unknown>): Record<string, unknown> | undefined {
  if (!fields) return fields;
  const out: Record<string, unknown> = {};
  for (const [k, v] of Object.entries(fields)) {
    out[k] = v instanceof Error ? { message: v.message, stack: v.stack } : v;
  }
  return out;
}

export const silentLogger: Logger = { debug() {}, info() {}, warn() {}, error() {} };
