import { randomBytes } from "node:crypto";
import { mkdirSync, writeFileSync } from "node:fs";
import path from "node:path";
import nodemailer, { type Transporter } from "nodemailer";
import type { StreamSentMessageInfo } from "nodemailer/lib/stream-transport";
import type { Logger } from "../lib/logger";
import { countMail } from "../lib/metrics";

export interface Mail {
  to: string;
  subject: string;
  text: string;
  html: string;
  /** The one link the message is about (never logged: the outbox's file holds it, for a machine without mail). */
  link?: string;
  /** Reply-To (a contact message's visitor). */
  replyTo?: string;
  /** Extra headers (List-Unsubscribe, List-Unsubscribe-Post). */
  headers?: Record<string, string>;
  /** The Message-ID, when the sender fixed it beforehand (a newsletter's: the same on a resend after a crash). */
  messageId?: string;
}

export interface Mailer {
  /** Sends a message; a failure is logged and reported as false, never thrown at the caller. */
  send(mail: Mail): Promise<boolean>;
  /** Sends a message; a failure is thrown (the job queue retries it, see services/jobs.ts). */
  deliver(mail: Mail): Promise<void>;
  /**
   * The same, over a pool of kept-open SMTP connections (a newsletter's thousands of mails: no new connection and
   * greeting per mail). Logged at debug level, not one info line per mail.
   */
  deliverBulk(mail: Mail): Promise<void>;
  /** Closes the bulk pool's connections (the app's stop). */
  close(): void;
  readonly outboxDir: string | undefined;
}

/**
 * SMTP_URL: nodemailer over SMTP. Without it, each message is written as an .eml file under DATA_DIR/outbox/ and its
 * recipient, subject and file are logged (not its link, a credential: open the file).
 */
export function createMailer(options: {
  smtpUrl?: string;
  from: string;
  dataDir: string;
  logger: Logger;
  /** DKIM: every mail signed with this key for this domain and selector (nodemailer's own signing). */
  dkim?: { privateKey: string; keySelector: string; domainName: string };
}): Mailer {
  const { logger, from } = options;
  const outboxDir = options.smtpUrl ? undefined : path.join(options.dataDir, "outbox");
  // nodemailer 10 (docs/decisions/080): the stream transport writes the `newline` it is given (LF in the outbox's
  // files); its answer's `message` is the whole message, a Buffer with `buffer: true`.
  const transport: Transporter = options.smtpUrl
    ? nodemailer.createTransport(options.smtpUrl)
    : nodemailer.createTransport({ streamTransport: true, buffer: true, newline: "unix" });

  // Made at the first newsletter mail; without SMTP_URL the outbox's stream transport serves both.
  let bulk: Transporter | undefined;
  const bulkTransport = () =>
    options.smtpUrl
      ? (bulk ??= nodemailer.createTransport(
          `${options.smtpUrl}${options.smtpUrl.includes("?") ? "&" : "?"}pool=true&maxConnections=4`,
        ))
      : transport;

  async function deliver(mail: Mail, via: Transporter = transport, quiet = false): Promise<void> {
    try {
      await write(mail, via, quiet);
      countMail("sent");
    } catch (error) {
      countMail("failed");
      throw error;
    }
  }

  async function write(mail: Mail, via: Transporter, quiet: boolean): Promise<void> {
    const info = await via.sendMail({
      from,
      to: mail.to,
      subject: mail.subject,
      text: mail.text,
      html: mail.html,
      replyTo: mail.replyTo,
      headers: mail.headers,
      ...(mail.messageId ? { messageId: mail.messageId } : {}),
      ...(options.dkim ? { dkim: options.dkim } : {}),
    });
    if (outboxDir) {
      mkdirSync(outboxDir, { recursive: true, mode: 0o700 });
      const file = path.join(
        outboxDir,
        `${new Date().toISOString().replace(/[:.]/g, "-")}-${slug(mail.subject)}-${randomBytes(3).toString("hex")}.eml`,
      );
      const message = (info as Partial<StreamSentMessageInfo>).message;
      if (!Buffer.isBuffer(message)) throw new Error("The outbox's mail transport gave no message to write.");
      writeFileSync(file, message, { mode: 0o600 });
      // Not its link: a reset or confirmation link is a credential; the file holds it.
      logger.info({ to: mail.to, subject: mail.subject, file }, "mail written to the outbox (no SMTP_URL)");
    } else if (quiet) {
      logger.debug({ to: mail.to, subject: mail.subject }, "mail sent");
    } else {
      logger.info({ to: mail.to, subject: mail.subject }, "mail sent");
    }
  }

  return {
    outboxDir,
    deliver: (mail) => deliver(mail),
    deliverBulk: (mail) => deliver(mail, bulkTransport(), true),
    close() {
      bulk?.close();
      bulk = undefined;
    },
    async send(mail) {
      try {
        await deliver(mail);
        return true;
      } catch (error) {
        logger.error({ to: mail.to, subject: mail.subject, error }, "mail could not be sent");
        return false;
      }
    },
  };
}

const slug = (s: string) =>
  s
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "")
    .slice(0, 40);

const escape = (s: string) =>
  s.replace(/[&<>"']/g, (c) => ({ "&": "&amp;", "<": "&lt;", ">": "&gt;", '"': "&quot;", "'": "&#39;" })[c]!);

/** A plain, readable message with one button; text and HTML say the same. */
export function linkMail(options: {
  to: string;
  subject: string;
  intro: string;
  action: string;
  link: string;
  outro: string;
}): Mail {
  const { to, subject, intro, action, link, outro } = options;
  return {
    to,
    subject,
    link,
    text: `${intro}\n\n${action}: ${link}\n\n${outro}\n`,
    html: `<!doctype html><html><body style="font-family:Georgia,serif;color:#23262b;background:#f5efe6;padding:32px">
<div style="max-width:520px;margin:auto;background:#fff;border-radius:16px;padding:32px">
<p style="font-size:16px;line-height:1.6">${escape(intro)}</p>
<p style="margin:28px 0"><a href="${escape(link)}" style="background:#c8693e;color:#fff;padding:12px 22px;border-radius:999px;text-decoration:none;font-family:Arial,sans-serif;font-weight:bold">${escape(action)}</a></p>
<p style="font-size:13px;color:#6b7079;line-height:1.6">${escape(outro)}<br>${escape(link)}</p>
</div></body></html>`,
  };
}
