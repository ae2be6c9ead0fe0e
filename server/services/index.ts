import type { Config } from "../config";
import type { Database } from "../db/client";
import type { Logger } from "../lib/logger";
import { createAccountsService, createAuth } from "./accounts";
import { createActivityService } from "./activity";
import { createAdminUsersService } from "./admin-users";
import { createCatalogueService } from "./catalogue";
import { createContentService } from "./content";
import { createMailer } from "./mailer";
import { createMailsService } from "../mail/compose";
import { createMediaService } from "./media";
import { createOrdersService } from "./orders";
import { createPaymentAccountsService } from "./payment-accounts";
import { createPayPalService } from "./paypal";
import { createInboxService } from "./inbox";
import { createJobsService } from "./jobs";
import { createNewsletterService } from "./newsletter";
import { createRateLimiter } from "./rate-limit";
import { createSettingsService } from "./settings";

/** Every domain service, wired once with its dependencies; pages and the REST API both receive this object. */
export function createServices(database: Database, config: Config, logger: Logger, now: () => Date = () => new Date()) {
  const rateLimiter = createRateLimiter(database.pool);
  const content = createContentService({
    db: database.db,
    pool: database.pool,
    logger,
    ttlMs: config.contentCacheTtlMs,
  });
  const inbox = createInboxService(database.db, rateLimiter, config.publicFormLimit);
  const mailer = createMailer({ smtpUrl: config.smtpUrl, from: config.mailFrom, dataDir: config.dataDir, logger });
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
  });
  const newsletter = createNewsletterService({
    db: database.db,
    limiter: rateLimiter,
    perIpLimit: config.publicFormLimit,
    jobs,
    mails,
    secret: config.authSecret,
    publicUrl: config.publicUrl,
    now,
  });
  const adminUsers = createAdminUsersService(database.db);
  const auth = createAuth(database.db, config, jobs, mails, logger);
  const accounts = createAccountsService({ auth, db: database.db, limiter: rateLimiter, adminUsers, config, logger });
  const settings = createSettingsService(database.db);
  const orders = createOrdersService({ db: database.db, content, logger, now, timeZone: config.timeZone, settings });
  const paymentAccounts = createPaymentAccountsService(database.db, config.paypalReceiverEmail);
  const paypal = createPayPalService({ db: database.db, config, orders, accounts: paymentAccounts, logger });
  const activity = createActivityService(database.db, config.timeZone);
  const catalogue = createCatalogueService({ db: database.db, orders, now });
  const media = createMediaService({ db: database.db, content, limiter: rateLimiter, logger });
  return {
    now,
    activity,
    settings,
    orders,
    paymentAccounts,
    paypal,
    catalogue,
    content,
    media,
    inbox,
    newsletter,
    rateLimiter,
    mailer,
    mails,
    jobs,
    adminUsers,
    accounts,
    async start() {
      await content.start();
      await jobs.start();
    },
    async close() {
      await jobs.close();
      await content.close();
    },
  };
}

export type Services = ReturnType<typeof createServices>;
