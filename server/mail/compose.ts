import { render } from "@react-email/render";
import { eq } from "drizzle-orm";
import type { Db } from "../db/client";
import { mailSettings } from "../db/schema";
import type { ContentService } from "../services/content";
import type { Mail } from "../services/mailer";
import { absoluteUrl, brandOf, type Brand } from "./brand";
import { MAIL_KINDS, MAIL_KIND_NAMES, type MailData, type MailKind } from "./kinds";
import { TEMPLATES, type MailContext } from "./templates";

type Reader = Pick<Db, "select">;

/** One template rendered twice: HTML for mail clients, plain text (from the same tree) for the others. */
export async function renderMail<K extends MailKind>(
  kind: K,
  data: MailData[K],
  to: string,
  options: { brand: Brand; publicUrl: string; timeZone: string },
): Promise<Mail> {
  const ctx: MailContext = {
    brand: options.brand,
    timeZone: options.timeZone,
    url: (path) => absoluteUrl(options.publicUrl, path),
  };
  const draft = TEMPLATES[kind](data, ctx);
  const [html, text] = await Promise.all([render(draft.body), render(draft.body, { plainText: true })]);
  return {
    to,
    subject: draft.subject,
    html,
    text,
    ...(draft.link ? { link: draft.link } : {}),
    ...(draft.replyTo ? { replyTo: draft.replyTo } : {}),
  };
}

export interface MailsServiceDeps {
  db: Db;
  content: Pick<ContentService, "snapshot">;
  publicUrl: string;
  timeZone: string;
}

/**
 * The site's mails: composed from the templates in the site's look, with the agency's name, logo and address from the
 * content, unless the admin turned the kind off.
 */
export function createMailsService({ db, content, publicUrl, timeZone }: MailsServiceDeps) {
  async function brand(): Promise<Brand> {
    return brandOf(await content.snapshot(), publicUrl);
  }

  /** Whether the admin left this kind on (a kind that cannot be turned off always is). */
  async function isOn(kind: MailKind, reader: Reader = db): Promise<boolean> {
    if (!MAIL_KINDS[kind].canTurnOff) return true;
    const [row] = await reader
      .select({ enabled: mailSettings.enabled })
      .from(mailSettings)
      .where(eq(mailSettings.kind, kind));
    return row?.enabled ?? true;
  }

  /** The mail, ready to queue, whatever the switch says (previews and test sends). */
  async function render<K extends MailKind>(kind: K, data: MailData[K], to: string): Promise<Mail> {
    return renderMail(kind, data, to, { brand: await brand(), publicUrl, timeZone });
  }

  return {
    isOn,
    render,

    /** The mail of this kind to this address, or null when the admin turned the kind off. */
    async compose<K extends MailKind>(
      kind: K,
      data: MailData[K],
      to: string,
      reader: Reader = db,
    ): Promise<Mail | null> {
      if (!(await isOn(kind, reader))) return null;
      return render(kind, data, to);
    },

    /** Every kind's switch, for the settings screen. */
    async switches(): Promise<Record<MailKind, boolean>> {
      const rows = await db.select().from(mailSettings);
      const off = new Set(rows.filter((r) => !r.enabled).map((r) => r.kind));
      return Object.fromEntries(MAIL_KIND_NAMES.map((k) => [k, !MAIL_KINDS[k].canTurnOff || !off.has(k)])) as Record<
        MailKind,
        boolean
      >;
    },
  };
}

export type MailsService = ReturnType<typeof createMailsService>;
