import { Writable } from "node:stream";
import { describe, expect, it } from "vitest";
import { CENSOR, createLogger, silentLogger, type Logger } from "./logger";

/** A logger writing JSON lines into memory, and the lines it wrote. */
function captured(level: "debug" | "info" = "debug") {
  let text = "";
  const destination = new Writable({
    write(chunk, _encoding, done) {
      text += String(chunk);
      done();
    },
  });
  const logger = createLogger(level, { format: "json", destination });
  return {
    logger,
    text: () => text,
    lines: () =>
      text
        .split("\n")
        .filter(Boolean)
        .map((l) => JSON.parse(l) as Record<string, unknown>),
  };
}

const PASSWORD = "correct horse battery staple";
const COOKIE = "better-auth.session_token=s3ss10nS3cr3t.sig";
const BEARER = "Bearer m3tr1csT0k3nV4lu3";
const RESET = "https://agency.example/reset-password?token=R3s3tT0k3nXYZ";
const CONFIRM = "https://agency.example/newsletter/confirm/C0nf1rmT0k3n123";

describe("the logger", () => {
  it("writes pino's JSON: level by name, ISO time, pid, fields then the message", () => {
    const log = captured();
    log.logger.info({ records: 56 }, "seeded the demo content");
    const [line] = log.lines();
    expect(line).toMatchObject({ level: "info", pid: process.pid, records: 56, msg: "seeded the demo content" });
    expect(new Date(line!.time as string).toISOString()).toBe(line!.time);
  });

  it("keeps the secrets a call site passes out of the line, wherever a line carries them", () => {
    const log = captured();
    log.logger.info({ password: PASSWORD, token: "R3s3tT0k3nXYZ", link: RESET }, "top level");
    log.logger.info({ headers: { cookie: COOKIE, authorization: BEARER, "set-cookie": [COOKIE] } }, "headers");
    log.logger.info({ req: { headers: { cookie: COOKIE, authorization: BEARER } } }, "a request's headers");
    log.logger.info({ body: { email: "a@example.org", password: PASSWORD, newPassword: PASSWORD } }, "a body");
    log.logger.info({ mail: { to: "a@example.org", link: CONFIRM } }, "a mail");
    const failure = Object.assign(new Error("refused"), { config: { smtpUrl: "smtp://u:p4ss@smtp" }, token: "x" });
    log.logger.error({ error: failure, user: { password: PASSWORD } }, "an error with secrets on it");

    const text = log.text();
    for (const secret of [
      PASSWORD,
      COOKIE,
      "s3ss10nS3cr3t",
      BEARER,
      "m3tr1csT0k3n",
      "R3s3tT0k3nXYZ",
      "C0nf1rmT0k3n123",
    ])
      expect(text, secret).not.toContain(secret);
    expect(text).not.toContain("p4ss");
    // The key stays, so that a line still says what was there; what is not secret stays as it was.
    const lines = log.lines();
    expect(lines[0]).toMatchObject({ password: CENSOR, token: CENSOR, link: CENSOR });
    expect(lines[3]).toMatchObject({ body: { email: "a@example.org", password: CENSOR } });
    expect(lines[5]).toMatchObject({ error: { message: "refused", token: CENSOR, config: { smtpUrl: CENSOR } } });
  });

  it("serialises an error under `error` with its type, message, stack and cause", () => {
    const log = captured();
    log.logger.error({ error: new TypeError("bad", { cause: new Error("why") }) }, "failed");
    const [line] = log.lines();
    expect(line!.error).toMatchObject({ type: "TypeError", message: "bad", cause: { message: "why" } });
    expect(String((line!.error as { stack: string }).stack)).toContain("TypeError: bad");
  });

  it("filters by level, and a child's lines carry its fields", () => {
    const log = captured("info");
    log.logger.debug("not written");
    log.logger.child({ reqId: "abc-1" }).warn("written");
    expect(log.lines()).toEqual([expect.objectContaining({ level: "warn", reqId: "abc-1", msg: "written" })]);
  });

  it("takes pino's shapes only: the old (message, fields) does not compile", () => {
    const log = captured();
    const logger: Logger = log.logger;
    // @ts-expect-error the fields would be dropped without a word; pino's shape is (fields, message)
    logger.info("message", { dropped: true });
    logger.info("message alone");
    expect(log.lines().map((l) => l.msg)).toEqual(["message", "message alone"]);
  });

  it("has a silent one for tests", () => {
    expect(silentLogger.level).toBe("silent");
    expect(silentLogger.isLevelEnabled("error")).toBe(false);
  });
});
