import { randomUUID } from "node:crypto";
import { render as renderHtml, toPlainText } from "@react-email/render";
import { eq } from "drizzle-orm";
import { z } from "zod";
import { parseWith } from "#domain/validation.ts";
import type { Db } from "../db/client";
import { adminUsers, mailSettings } from "../db/schema";
import { AppError, badRequest } from "../lib/errors";
import { withDeps } from "#server/lib/with-deps.ts";
import { audited, type Actor } from "./activity";
import type { ContentService } from "./content";
import { jobKey, type JobsService, type Tx } from "./jobs";
import type { Mail } from "./mailer";
import { absoluteUrl, brandOf, type Brand } from "../mail/brand";
import { mailLogoPath, type MailLogo, type MailLogoPng } from "../mail/logo";
import { MAIL_KINDS, MAIL_KIND_NAMES, type MailData, type MailKind } from "../mail/kinds";
import { sampleData } from "../mail/samples";
import { TEMPLATES, type MailContext } from "../mail/templates";

type Reader = Pick<Db, "select">;

/** A kind of mail, by its name (a form's hidden field or a JSON body). */
export const mailKindSchema = z.enum(MAIL_KIND_NAMES as [MailKind, ...MailKind[]], { error: "Unknown mail" });

/** "Send a test to me": which kind. */
export const mailTestSchema = z.object({ kind: mailKindSchema });

/** The admin's switch of one kind: on or off (JSON true/false, or a form's "true"/"false"). */
export const mailSwitchSchema = z.object({
  kind: mailKindSchema,
  enabled: z
    .union([z.boolean(), z.literal("true"), z.literal("false")], { error: "Must be true or false" })
    .transform((v) => v === true || v === "true"),
});

/** One template: HTML for mail clients, and the plain text of that same HTML for the others. */
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
  const html = await renderHtml(draft.body);
  // What render(…, { plainText: true }) does, without rendering the tree a second time.
  const text = toPlainText(html);
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
  now: () => Date;
  jobs: Pick<JobsService, "queueMail">;
  /** The mails' logo, a PNG drawn from the site's logo (server/mail/logo.ts); without it, mails show the name. */
  logo?: MailLogo;
}

/**
 * The site's mails: composed from the templates in the site's look, with the agency's name, logo and address from the
 * content, unless the admin turned the kind off.
 */
export function createMailsService(deps: MailsServiceDeps) {
  return {
    /** The agency's name, logo and address as mails draw them (the newsletter draws its own body in the layout). */
    brand: withDeps(deps, brand),
    isOn: withDeps(deps, isOn),
    render: <K extends MailKind>(kind: K, data: MailData[K], to: string) => render(deps, kind, data, to),
    compose: <K extends MailKind>(kind: K, data: MailData[K], to: string, reader?: Reader) =>
      compose(deps, kind, data, to, reader),
    queue: <K extends MailKind>(tx: Tx, kind: K, data: MailData[K], to: string, key: string) =>
      queue(deps, tx, kind, data, to, key),
    logoPng: withDeps(deps, logoPng),
    queueToAdmins: <K extends MailKind>(tx: Tx, kind: K, data: MailData[K], key: string) =>
      queueToAdmins(deps, tx, kind, data, key),
    preview: <K extends MailKind>(kind: K, to: string) => preview(deps, kind, to),
    sendTest: withDeps(deps, sendTest),
    setEnabled: withDeps(deps, setEnabled),
    switches: withDeps(deps, switches),
  };
}

async function brand({ content, logo, publicUrl }: MailsServiceDeps): Promise<Brand> {
  const snapshot = await content.snapshot();
  const png = await logo?.(snapshot.logo[0]?.logo);
  const mailLogo = png && {
    url: absoluteUrl(publicUrl, mailLogoPath(png.version)),
    width: png.width,
    height: png.height,
  };
  return { ...brandOf(snapshot, publicUrl), mailLogo };
}

/** Whether the admin left this kind on (a kind that cannot be turned off always is). */
async function isOn(deps: MailsServiceDeps, kind: MailKind, reader: Reader = deps.db): Promise<boolean> {
  if (!MAIL_KINDS[kind].canTurnOff) return true;
  const [row] = await reader
    .select({ enabled: mailSettings.enabled })
    .from(mailSettings)
    .where(eq(mailSettings.kind, kind));
  return row?.enabled ?? true;
}

/** The mail, ready to queue, whatever the switch says (previews and test sends). */
async function render<K extends MailKind>(
  deps: MailsServiceDeps,
  kind: K,
  data: MailData[K],
  to: string,
): Promise<Mail> {
  const { publicUrl, timeZone } = deps;
  return renderMail(kind, data, to, { brand: await brand(deps), publicUrl, timeZone });
}

/** The mail of this kind to this address, or null when the admin turned the kind off. */
async function compose<K extends MailKind>(
  deps: MailsServiceDeps,
  kind: K,
  data: MailData[K],
  to: string,
  reader: Reader = deps.db,
): Promise<Mail | null> {
  if (!(await isOn(deps, kind, reader))) return null;
  return render(deps, kind, data, to);
}

/**
 * Composes the mail and queues it in the caller's transaction (sent only if it commits), once per key ever.
 * false when the kind is off or the key was used before.
 */
async function queue<K extends MailKind>(
  deps: MailsServiceDeps,
  tx: Tx,
  kind: K,
  data: MailData[K],
  to: string,
  key: string,
): Promise<boolean> {
  const mail = await compose(deps, kind, data, to, tx);
  return mail ? deps.jobs.queueMail(tx, mail, key) : false;
}

/** The sample data, about the site's first package when it has one (its name, price and validity). */
async function samples({ content, now, publicUrl }: MailsServiceDeps) {
  const first = (await content.snapshot()).pricing[0];
  return sampleData(
    now(),
    publicUrl,
    first
      ? { name: first.packageName, price: Number(first.packagePrice), validity: Number(first.packageValidity) }
      : undefined,
  );
}

/** The mails' logo as a PNG, drawn from the site's current logo; undefined when there is none to draw. */
async function logoPng({ content, logo }: MailsServiceDeps): Promise<MailLogoPng | undefined> {
  return logo?.((await content.snapshot()).logo[0]?.logo);
}

/** The same mail to every admin (one job each, keyed `key:<admin id>`), in the caller's transaction. */
async function queueToAdmins<K extends MailKind>(
  deps: MailsServiceDeps,
  tx: Tx,
  kind: K,
  data: MailData[K],
  key: string,
): Promise<number> {
  if (!(await isOn(deps, kind, tx))) return 0;
  const admins = await tx
    .select({ id: adminUsers.id, email: adminUsers.userEmail })
    .from(adminUsers)
    .where(eq(adminUsers.userRole, "Admin"));
  let queued = 0;
  for (const admin of admins) if (await queue(deps, tx, kind, data, admin.email, `${key}:${admin.id}`)) queued++;
  return queued;
}

/** A kind rendered with sample data, as the back office previews it. */
async function preview<K extends MailKind>(deps: MailsServiceDeps, kind: K, to: string): Promise<Mail> {
  return render(deps, kind, (await samples(deps))[kind], to);
}

/** "Send a test to me": the kind with sample data to the signed-in admin, queued like every mail (on or off). */
async function sendTest(
  deps: MailsServiceDeps,
  kind: MailKind,
  viewer: { email: string },
): Promise<{ queued: boolean }> {
  const mail = await render(deps, kind, (await samples(deps))[kind], viewer.email);
  const test = { ...mail, subject: `[Test] ${mail.subject}` };
  const queued = await deps.db.transaction((tx) =>
    deps.jobs.queueMail(tx, test, jobKey("mail-test", kind, randomUUID())),
  );
  return { queued };
}

/** The admin turns a kind on or off (audited); the mails that must go out cannot be turned off (409). */
async function setEnabled(deps: MailsServiceDeps, input: unknown, actor: Actor): Promise<{ modified: boolean }> {
  const parsed = parseWith(mailSwitchSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const { kind, enabled } = parsed.data;
  if (!MAIL_KINDS[kind].canTurnOff && !enabled)
    throw new AppError(409, `The ${MAIL_KINDS[kind].label.toLowerCase()} mail is always sent.`);
  return audited(deps.db, actor, "mail", async (tx, audit) => {
    const before = await isOn(deps, kind, tx);
    if (before === enabled) return { modified: false };
    await tx
      .insert(mailSettings)
      .values({ kind, enabled, updatedAt: new Date() })
      .onConflictDoUpdate({ target: mailSettings.kind, set: { enabled, updatedAt: new Date() } });
    await audit.updated(kind, { enabled: before }, { enabled });
    return { modified: true };
  });
}

/** Every kind's switch, for the settings screen. */
async function switches({ db }: MailsServiceDeps): Promise<Record<MailKind, boolean>> {
  const rows = await db.select().from(mailSettings);
  const off = new Set(rows.filter((r) => !r.enabled).map((r) => r.kind));
  return Object.fromEntries(MAIL_KIND_NAMES.map((k) => [k, !MAIL_KINDS[k].canTurnOff || !off.has(k)])) as Record<
    MailKind,
    boolean
  >;
}

export type MailsService = ReturnType<typeof createMailsService>;
