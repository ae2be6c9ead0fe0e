import path from "node:path";
import { fileURLToPath } from "node:url";
import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Logger } from "../lib/logger";
import { createAccountsService, createAuth } from "./accounts";
import { createActivityService } from "./activity";
import { createApiKeysService } from "./api-keys";
import { ARTICLE_ENTITY, createArticlesService } from "./articles";
import { createAdminUsersService } from "./admin-users";
import { createBackOfficeService } from "./back-office";
import { createBackupsService } from "./backups";
import { s3Client } from "../lib/s3";
import { createBlogService } from "./blog";
import { createCatalogueService } from "./catalogue";
import { createContentService } from "./content";
import { createCustomersService } from "./customers";
import { createImportsService } from "./imports";
import { createExportsService } from "./exports";
import { createMailer } from "./mailer";
import { createMailsService } from "./mails";
import { createMailLogo, siteFileReader } from "../mail/logo";
import { createMembershipReminders } from "./reminders";
import { createMediaService, type MediaService } from "./media";
import { createOrdersService } from "./orders";
import { createPaymentAccountsService } from "./payment-accounts";
import { createPrivacyService } from "./privacy";
import { createReportsService } from "./reports";
import { createTaxReportService } from "./tax-report";
import { createStaffService } from "./staff";
import { createPayPalService } from "./paypal";
import { createPaymentsService } from "./payments";
import { createSubscriptionsService, type SubscriptionsService } from "./subscriptions";
import { createInboxService } from "./inbox";
import { createInvoicesService } from "./invoices";
import { createCreditNotesService } from "./credit-notes";
import { createJobsService } from "./jobs";
import { createNewsletterService } from "./newsletter";
import { createNewslettersService } from "./newsletters";
import { createSuppressionsService } from "./suppressions";
import { createRateLimiter } from "./rate-limit";
import { createSettingsService } from "./settings";
import { createTrashService } from "./trash";
import { createVersionsService } from "./versions";
import { createMyAccountService } from "./my-account";
import { createTwoFactorService } from "./two-factor";
import { createDiscountsService } from "./discounts";
import { createWebhooksService } from "./webhooks";

/** What every step of the wiring is made from. */
interface Wiring {
  database: Database;
  config: Config;
  logger: Logger;
  now: () => Date;
}

/** Services made in a later step that an earlier one asks for only once everything is made. */
interface Later {
  media: () => Pick<MediaService, "file">;
  subscriptions: () => Pick<SubscriptionsService, "activeOf">;
}

/** Every domain service, wired once with its dependencies; pages and the REST API both receive this object. */
export function createServices(database: Database, config: Config, logger: Logger, now: () => Date = () => new Date()) {
  const w: Wiring = { database, config, logger, now };
  const later: Later = { media: () => site.media, subscriptions: () => money.subscriptions };
  const core = coreServices(w, later);
  const audience = audienceServices(w, core, later);
  const people = peopleServices(w, core);
  const sales = salesServices(w, core);
  const keeping = keepingServices(w, core, sales, people);
  const money = paymentServices(w, core, sales);
  const site = siteServices(w, core, sales);
  const office = officeServices(w, core, sales, audience);
  scheduleRetries(w, core, money);
  const { content, jobs, mailer } = core;
  return {
    now,
    ...core,
    ...audience,
    ...people,
    ...sales,
    ...keeping,
    ...money,
    ...site,
    ...office,
    async start() {
      await content.start();
      await sales.orders.start();
      await jobs.start();
    },
    async close() {
      await jobs.close();
      mailer.close();
      await content.close();
    },
  };
}

export type Services = ReturnType<typeof createServices>;

type Core = ReturnType<typeof coreServices>;
type Sales = ReturnType<typeof salesServices>;

/** The rate limiter, content, the mailer, the job queue, the mails and the outgoing webhooks: what the rest use. */
function coreServices({ database, config, logger, now }: Wiring, later: Later) {
  const rateLimiter = createRateLimiter({ pool: database.pool });
  const content = createContentService({
    db: database.db,
    pool: database.pool,
    logger,
    ttlMs: config.contentCacheTtlMs,
    clock: now,
  });
  const mailer = createMailer({
    smtpUrl: config.smtpUrl,
    from: config.mailFrom,
    dataDir: config.dataDir,
    logger,
    dkim: config.dkim,
  });
  const jobs = createJobsService({
    db: database.db,
    pool: database.pool,
    mailer,
    logger,
    now,
    options: config.jobs,
  });
  const mails = createMailsService({
    db: database.db,
    content,
    publicUrl: config.publicUrl,
    timeZone: config.timeZone,
    now,
    jobs,
    // The mails' PNG logo, drawn from the site's logo: a shipped file (public/, the same folder from the sources and
    // from the build) or a media library file (the media service, made later, is asked only when a mail is written).
    logo: createMailLogo(
      siteFileReader({
        publicDirs: [fileURLToPath(new URL("../../public", import.meta.url)), path.resolve("public")],
        mediaFile: (key, width, format) => later.media().file(key, width, format),
      }),
    ),
  });
  // Outgoing webhooks (issue 37 part 2): the services below report their events to it, in their transactions.
  const webhooks = createWebhooksService({
    db: database.db,
    jobs,
    mails,
    logger,
    now,
    options: config.webhooks,
  });
  return { rateLimiter, content, mailer, jobs, mails, webhooks };
}

/** The newsletter's subscribers and sends, the membership reminders, the contact form's inbox. */
function audienceServices(
  { database, config, logger, now }: Wiring,
  { rateLimiter, jobs, mails, mailer, webhooks }: Core,
  later: Later,
) {
  const suppressions = createSuppressionsService({
    db: database.db,
    now,
    webhookSecret: config.mailWebhookSecret,
  });
  const newsletter = createNewsletterService({
    db: database.db,
    limiter: rateLimiter,
    perIpLimit: config.publicFormLimit,
    jobs,
    mails,
    suppressions,
    secret: config.authSecret,
    publicUrl: config.publicUrl,
    now,
    webhooks,
  });
  // Newsletters (issue 36): their sends run on the queue, a batch per job, at NEWSLETTER_RATE_PER_MINUTE.
  const newsletters = createNewslettersService({
    db: database.db,
    jobs,
    mails,
    mailer,
    secret: config.authSecret,
    publicUrl: config.publicUrl,
    mailFrom: config.mailFrom,
    ratePerMinute: config.newsletterRatePerMinute,
    journalDir: path.join(config.dataDir, "newsletters"),
    logger,
    now,
  });
  const reminders = createMembershipReminders({
    db: database.db,
    mails,
    // Read at scan time, once the subscriptions service (made later) exists.
    subscriptions: { activeOf: (userIds) => later.subscriptions().activeOf(userIds) },
    now,
  });
  // Every 10 minutes, once across the instances: a reminder is at most that late.
  jobs.every(
    "membership-reminders",
    "*/10 * * * *",
    async () => {
      await reminders.scan();
    },
    { title: "Membership reminders: renews or ends in 7 days, ended" },
  );
  const inbox = createInboxService({
    db: database.db,
    limiter: rateLimiter,
    perIpLimit: config.publicFormLimit,
    mails,
    now,
    webhooks,
  });
  return { suppressions, newsletter, newsletters, reminders, inbox };
}

/** The staff, the accounts and their sign-in (better-auth), two-factor, the customers' own account. */
function peopleServices({ database, config, logger, now }: Wiring, { rateLimiter, jobs, mails, webhooks }: Core) {
  const adminUsers = createAdminUsersService({ db: database.db });
  const staff = createStaffService({ db: database.db, mails, publicUrl: config.publicUrl });
  const auth = createAuth({ db: database.db, config, jobs, mails, logger, limiter: rateLimiter, webhooks });
  const accounts = createAccountsService({ auth, db: database.db, limiter: rateLimiter, adminUsers, config, logger });
  const twoFactor = createTwoFactorService({
    auth,
    db: database.db,
    limiter: rateLimiter,
    policy: config.staffTwoFactor,
    now,
  });
  const myAccount = createMyAccountService({ auth, db: database.db, secret: config.authSecret });
  return { adminUsers, staff, accounts, twoFactor, myAccount };
}

/** The settings, discount codes, invoices, credit notes and the orders. */
function salesServices({ database, config, logger, now }: Wiring, { content, mails, webhooks }: Core) {
  const settings = createSettingsService({ db: database.db });
  const discounts = createDiscountsService({ db: database.db, content, timeZone: config.timeZone, now });
  const invoices = createInvoicesService({
    db: database.db,
    content,
    settings,
    publicUrl: config.publicUrl,
    timeZone: config.timeZone,
  });
  const creditNotes = createCreditNotesService({ db: database.db, invoices, timeZone: config.timeZone });
  const orders = createOrdersService({
    db: database.db,
    content,
    logger,
    now,
    timeZone: config.timeZone,
    settings,
    mails,
    discounts,
    creditNotes,
    webhooks,
  });
  return { settings, discounts, invoices, creditNotes, orders };
}

/** Privacy (access and erasure), the backups, the blog's reads. */
function keepingServices(
  { database, config, logger, now }: Wiring,
  { content, jobs, mails, rateLimiter, webhooks }: Core,
  { orders, creditNotes }: Sales,
  { twoFactor }: Pick<ReturnType<typeof peopleServices>, "twoFactor">,
) {
  const privacy = createPrivacyService({
    db: database.db,
    orders,
    creditNotes,
    limiter: rateLimiter,
    twoFactor,
    importsDir: path.join(config.dataDir, "imports"),
    backupsKept: config.backup.keep,
    now,
    webhooks,
  });
  const backups = createBackupsService({
    db: database.db,
    pool: database.pool,
    dir: config.backup.dir,
    keep: config.backup.keep,
    // Each verified backup also goes to the BACKUP_TARGET bucket (docs/decisions/082), through the shared S3 client.
    remote: config.backup.remote ? { client: s3Client(config.s3), location: config.backup.remote } : undefined,
    jobs,
    jobOptions: config.jobs,
    mails,
    logger,
    now,
  });
  // The blog's reads of the articles (issue 36): the articles service (engineer A's) is their one writer.
  const blog = createBlogService({ db: database.db, content, orders });
  return { privacy, backups, blog };
}

/** The payment accounts, subscriptions, PayPal and the payments. */
function paymentServices({ database, config, logger, now }: Wiring, { content, mails, webhooks }: Core, sales: Sales) {
  const { orders, creditNotes } = sales;
  const paymentAccounts = createPaymentAccountsService({ db: database.db, fallbackEmail: config.paypalReceiverEmail });
  const subscriptions = createSubscriptionsService({ db: database.db, now, mails, webhooks });
  const paypal = createPayPalService({
    db: database.db,
    config,
    orders,
    accounts: paymentAccounts,
    logger,
  });
  const payments = createPaymentsService({
    db: database.db,
    config,
    logger,
    now,
    orders,
    mails,
    creditNotes,
    content,
    subscriptions,
    receiver: () => paymentAccounts.receiver(),
  });
  return { paymentAccounts, subscriptions, paypal, payments };
}

/** The activity log, API keys, the catalogue, the media library, the articles, the trash and the versions. */
function siteServices(
  { database, config, logger, now }: Wiring,
  { content, jobs, rateLimiter }: Core,
  { orders }: Sales,
) {
  const activity = createActivityService({ db: database.db, timeZone: config.timeZone });
  // API keys (issue 37, decision 077): checked on every keyed REST request, with their own rate limit.
  const apiKeys = createApiKeysService({ db: database.db, limiter: rateLimiter, perMinute: config.apiKeyLimit, now });
  const catalogue = createCatalogueService({ db: database.db, orders, changes: content, now });
  const media = createMediaService({ db: database.db, content, limiter: rateLimiter, logger, now, storage: config });
  // The blog's articles (issue 36): written only here; a scheduled one published by a run queued for its time, and by
  // the job below, once a minute, should that run be lost.
  const articles = createArticlesService({ db: database.db, content, logger, now, timeZone: config.timeZone, jobs });
  jobs.every(
    "articles-publish",
    "* * * * *",
    async () => {
      await articles.publishDue();
    },
    { firstRunAfterSeconds: 5, title: "Articles: publish those whose scheduled time has come" },
  );
  // Deleted content, items and images, kept 30 days (decision 039); each kind put back by the service that owns it.
  const trash = createTrashService({
    db: database.db,
    logger,
    now,
    restorers: { content: content.restoreIn, items: catalogue.restoreIn, media: media.restoreIn },
    entityRestorers: { [ARTICLE_ENTITY]: articles.restoreIn },
    changed: () => content.invalidate(),
    purgeFiles: media.purgeFilesIn,
  });
  const versions = createVersionsService({ db: database.db, content, timeZone: config.timeZone });
  // Once a day, once across the instances: what was deleted 30 days ago is deleted for good.
  jobs.every(
    "trash-clean-up",
    "17 3 * * *",
    async () => {
      await trash.purgeExpired();
    },
    { firstRunAfterSeconds: 60, title: "Trash: delete for good what was deleted 30 days ago" },
  );
  return { activity, apiKeys, catalogue, media, articles, trash, versions };
}

/** The back office's exports, figures, reports and tax report, the customers and the member imports. */
function officeServices(
  { database, config, logger, now }: Wiring,
  { jobs, mails, webhooks }: Core,
  { orders }: Sales,
  { newsletter }: Pick<ReturnType<typeof audienceServices>, "newsletter">,
) {
  const csvExports = createExportsService({ pool: database.pool, timeZone: config.timeZone });
  const backOffice = createBackOfficeService({ db: database.db, orders, timeZone: config.timeZone, now, webhooks });
  const reports = createReportsService({ db: database.db, timeZone: config.timeZone, now });
  const taxReport = createTaxReportService({ db: database.db, timeZone: config.timeZone, now });
  const customers = createCustomersService({
    db: database.db,
    pool: database.pool,
    orders,
    mails,
    now,
    timeZone: config.timeZone,
    webhooks,
  });
  // Member imports from CSV files (issue 37 part 3, decision 079): checked and imported on the job queue.
  const imports = createImportsService({
    db: database.db,
    customers,
    newsletter,
    jobs,
    logger,
    now,
    timeZone: config.timeZone,
    dir: path.join(config.dataDir, "imports"),
  });
  return { exports: csvExports, backOffice, reports, taxReport, customers, imports };
}

/**
 * What is stored but unfinished, on both rails (decision 069): IPN messages stored but not processed (the app stopped
 * half-way) or not verifiable when they came (PayPal unreachable), and webhook notices left unapplied by a crash
 * between storing and handling, are processed again: shortly after the start (once the app listens: the simulator's
 * postback goes to the app itself), then every 5 minutes.
 */
function scheduleRetries({ logger }: Wiring, { jobs }: Core, { payments }: ReturnType<typeof paymentServices>) {
  jobs.every(
    "paypal-retry",
    "*/5 * * * *",
    async () => {
      const { retried } = await payments.ipn.retry();
      if (retried) logger.info({ retried }, "PayPal notifications processed again");
      for (const [provider, controller] of Object.entries(payments.controllers)) {
        const { swept } = (await controller?.sweep()) ?? { swept: 0 };
        if (swept) logger.info({ provider, swept }, "payment notices left unapplied applied again");
      }
    },
    { firstRunAfterSeconds: 10, title: "PayPal notifications checked again" },
  );
  // Checkouts the buyer approved and never came back from, or nothing was heard of: asked again (decision 066).
  jobs.every(
    "payments-reconcile",
    "*/5 * * * *",
    async () => {
      const done = await payments.checkout?.reconcile();
      if (done?.looked) logger.info(done, "PayPal checkouts reconciled");
    },
    { firstRunAfterSeconds: 30, title: "PayPal checkouts looked at again" },
  );
}
