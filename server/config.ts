import { randomBytes } from "node:crypto";
import { isIP } from "node:net";
import { availableParallelism } from "node:os";
import { chmodSync, existsSync, mkdirSync, readFileSync, writeFileSync } from "node:fs";
import path from "node:path";
import { z } from "zod";
import { isTimeZone, systemTimeZone } from "#domain/dates.ts";
import { RETRY_SCHEDULE_SECONDS } from "#domain/webhooks.ts";

const emptyToUndefined = (v: unknown) => (typeof v === "string" && v.trim() === "" ? undefined : v);

const envSchema = z.object({
  NODE_ENV: z.preprocess(emptyToUndefined, z.enum(["production", "development", "test"]).default("production")),
  PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).default(3000)),
  HOST: z.preprocess(emptyToUndefined, z.string().min(1).default("127.0.0.1")),
  DATA_DIR: z.preprocess(emptyToUndefined, z.string().min(1).default("./data")),
  DATABASE_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^postgres(ql)?:\/\//.test(v), { error: "must be a postgres:// or postgresql:// URL" })
      .optional(),
  ),
  DATABASE_POOL_SIZE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(200).default(10)),
  DATABASE_MAX_CONNECTIONS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).optional()),
  PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://agency.example" })
      .transform((v) => v.replace(/\/+$/, ""))
      .optional(),
  ),
  AUTH_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(32, { error: "must be at least 32 characters" }).optional(),
  ),
  TRUST_PROXY: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .default("false")
      .transform((v, ctx) => {
        const parsed = parseTrustProxy(v);
        if (parsed === undefined) {
          ctx.addIssue({
            code: "custom",
            message:
              "must be false, a number of proxy hops (true means 1), or a comma-separated list of proxy addresses",
          });
          return z.NEVER;
        }
        return parsed;
      }),
  ),
  LOG_LEVEL: z.preprocess(emptyToUndefined, z.enum(["debug", "info", "warn", "error", "silent"]).default("info")),
  LOG_FORMAT: z.preprocess(emptyToUndefined, z.enum(["json", "pretty"]).optional()),
  METRICS_PORT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(65535).optional()),
  METRICS_HOST: z.preprocess(emptyToUndefined, z.string().min(1).default("127.0.0.1")),
  METRICS_TOKEN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[\x21-\x7e]{32,200}$/, { error: "must be 32 to 200 printable characters without spaces" })
      .optional(),
  ),
  SEED_DEMO_CONTENT: z
    .preprocess(emptyToUndefined, z.enum(["true", "false"]).default("true"))
    .transform((v) => v === "true"),
  CONTENT_CACHE_TTL_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).default(60_000)),
  ADMIN_EMAIL: z.preprocess(emptyToUndefined, z.email({ error: "must be an email address" }).optional()),
  // The staff password rule (server/services/passwords.ts) is checked when the first administrator is created.
  ADMIN_PASSWORD: z.preprocess(emptyToUndefined, z.string().optional()),
  ADMIN_2FA: z.preprocess(
    emptyToUndefined,
    z.enum(["required", "optional"], { error: "must be required or optional" }).default("required"),
  ),
  SMTP_URL: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .refine((v) => /^smtps?:\/\//.test(v), { error: "must be an smtp:// or smtps:// URL" })
      .optional(),
  ),
  MAIL_FROM: z.preprocess(emptyToUndefined, z.string().min(3).optional()),
  PAYPAL_MODE: z.preprocess(emptyToUndefined, z.enum(["live", "sandbox", "simulator"]).optional()),
  PAYPAL_CLIENT_ID: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(200).optional()),
  PAYPAL_CLIENT_SECRET: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(200).optional()),
  PAYPAL_WEBHOOK_ID: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .trim()
      .regex(/^[A-Za-z0-9-]{1,50}$/, { error: "must be the webhook's id as PayPal shows it (letters, digits, -)" })
      .optional(),
  ),
  PAYPAL_RECEIVER_EMAIL: z.preprocess(emptyToUndefined, z.email({ error: "must be an email address" }).optional()),
  TZ: z.preprocess(
    emptyToUndefined,
    z.string().refine(isTimeZone, { error: "must be an IANA time zone such as Europe/London or UTC" }).optional(),
  ),
  RATE_LIMIT_PUBLIC_FORMS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(10)),
  RATE_LIMIT_API_KEYS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).default(600)),
  GENERATION_DELAY_MS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(60_000).default(9000)),
  JOB_RETRY_LIMIT: z.preprocess(emptyToUndefined, z.coerce.number().int().min(0).max(50).optional()),
  JOB_RETRY_DELAY_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(3600).optional()),
  JOB_POLL_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(0.5).max(60).optional()),
  JOB_WORKERS: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).default("true")),
  WEB_CONCURRENCY: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(16).optional()),
  BACKUP_DIR: z.preprocess(emptyToUndefined, z.string().min(1).optional()),
  BACKUP_KEEP: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(1000).default(14)),
  BACKUP_BEFORE_MIGRATION: z
    .preprocess(emptyToUndefined, z.enum(["true", "false"], { error: "must be true or false" }).default("true"))
    .transform((v) => v === "true"),
  BACKUP_TARGET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^s3:\/\/[a-z0-9][a-z0-9.-]{1,61}[a-z0-9](\/[^\s]*)?$/, {
        error: "must be an S3 bucket address such as s3://agency-backups or s3://agency-backups/atelier/",
      })
      .optional(),
  ),
  S3_ENDPOINT: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://s3.eu-west-2.amazonaws.com" })
      .transform((v) => v.replace(/\/+$/, ""))
      .optional(),
  ),
  S3_REGION: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9-]{2,40}$/)
      .default("us-east-1"),
  ),
  S3_ACCESS_KEY_ID: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(200).optional()),
  S3_SECRET_ACCESS_KEY: z.preprocess(emptyToUndefined, z.string().trim().min(1).max(200).optional()),
  S3_FORCE_PATH_STYLE: z.preprocess(emptyToUndefined, z.enum(["true", "false"]).optional()),
  MEDIA_STORAGE: z.preprocess(
    emptyToUndefined,
    z.enum(["database", "s3"], { error: "must be database or s3" }).default("database"),
  ),
  MEDIA_S3_BUCKET: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[a-z0-9][a-z0-9.-]{1,61}[a-z0-9]$/, { error: "must be an S3 bucket name (3 to 63 of a-z 0-9 . -)" })
      .optional(),
  ),
  MEDIA_S3_PREFIX: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^([A-Za-z0-9._-]+\/)*$/, { error: "must be folder names ending in /, such as media/" })
      .default("media/"),
  ),
  MEDIA_PUBLIC_URL: z.preprocess(
    emptyToUndefined,
    z
      .url({ protocol: /^https?$/, error: "must be an http(s) URL such as https://cdn.agency.example" })
      .transform((v) => v.replace(/\/+$/, ""))
      .optional(),
  ),
  NEWSLETTER_RATE_PER_MINUTE: z.preprocess(emptyToUndefined, z.coerce.number().int().min(1).max(600_000).default(600)),
  MAIL_WEBHOOK_SECRET: z.preprocess(
    emptyToUndefined,
    z.string().min(16, { error: "must be 16 characters or more" }).optional(),
  ),
  WEBHOOKS_ALLOW_PRIVATE: z
    .preprocess(emptyToUndefined, z.enum(["1", "true", "0", "false"]).default("0"))
    .transform((v) => v === "1" || v === "true"),
  WEBHOOKS_RETRY_SCHEDULE: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^\s*\d+(\.\d+)?(\s*,\s*\d+(\.\d+)?){0,29}\s*$/, {
        error: "must be up to 30 waits in seconds, separated by commas, such as 0,5,300",
      })
      .transform((v) => v.split(",").map(Number))
      .optional(),
  ),
  WEBHOOKS_TIMEOUT_SECONDS: z.preprocess(emptyToUndefined, z.coerce.number().min(0.1).max(60).default(10)),
  DKIM_PRIVATE_KEY: z.preprocess(emptyToUndefined, z.string().includes("PRIVATE KEY").optional()),
  DKIM_SELECTOR: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9._-]{1,63}$/)
      .optional(),
  ),
  DKIM_DOMAIN: z.preprocess(
    emptyToUndefined,
    z
      .string()
      .regex(/^[A-Za-z0-9.-]{1,253}$/)
      .optional(),
  ),
});

/** The name of every setting the environment may give (docs/configuration.md describes each: server/config-docs.ts). */
export type SettingName = keyof typeof envSchema.shape;

export interface Config {
  env: "production" | "development" | "test";
  port: number;
  host: string;
  dataDir: string;
  databaseUrl: string | undefined;
  /** Connections of each process's pool (DATABASE_POOL_SIZE); the job queue has a few more of its own. */
  databasePoolSize: number;
  /**
   * How many connections all the app's hosts may open together (DATABASE_MAX_CONNECTIONS); unset: what the server
   * accepts (max_connections less its reserved ones). Behind PgBouncer, what PgBouncer accepts (server/db/capacity.ts).
   */
  databaseMaxConnections: number | undefined;
  publicUrl: string;
  /** Signs sessions, role cookies and unsubscribe links: AUTH_SECRET, else the one kept in the database (decision 035). */
  authSecret: string;
  /**
   * Which proxies in front of us are believed about the client address (Express's "trust proxy"): false (none),
   * a number of hops (the client is that many addresses from the right of X-Forwarded-For), or proxy addresses.
   */
  trustProxy: false | number | string[];
  logLevel: "debug" | "info" | "warn" | "error" | "silent";
  /** JSON lines, or readable ones (pino-pretty); unset: readable in development and in a terminal, else JSON. */
  logFormat: "json" | "pretty" | undefined;
  /**
   * Where /metrics is answered (decision 034): on its own port (METRICS_PORT, on METRICS_HOST) and/or on the site's
   * port to a bearer of METRICS_TOKEN (required on the metrics port too when set). Neither: nowhere.
   */
  metrics: { port: number | undefined; host: string; token: string | undefined };
  seedDemoContent: boolean;
  contentCacheTtlMs: number;
  /** Contact messages and newsletter signups allowed per IP in ten minutes. */
  publicFormLimit: number;
  /** REST requests one API key may make per minute (decision 077). */
  apiKeyLimit: number;
  /** The first administrator, created on the first start of an empty database. */
  adminEmail: string | undefined;
  adminPassword: string | undefined;
  /** Staff must sign in with a second factor (ADMIN_2FA, decision 040): "required" unless set to "optional". */
  staffTwoFactor: "required" | "optional";
  smtpUrl: string | undefined;
  mailFrom: string;
  paypalMode: "live" | "sandbox" | "simulator";
  /**
   * PayPal's REST app (issue 34 part 7): required in live and sandbox mode (the start refuses without them); the
   * simulator needs none. The webhook id is registered at the start when not given.
   */
  paypalCredentials: { clientId: string; clientSecret: string } | null;
  paypalWebhookId: string | null;
  /** The receiving PayPal account when no payment-account record exists. */
  paypalReceiverEmail: string;
  /** The time zone every date is shown in, on the server and in the browser (TZ; the machine's when unset). */
  timeZone: string;
  /** The generator's fixed wait before it shows a template (spec 1, section 9: 9000 ms; tests use 0). */
  generationDelayMs: number;
  /** Newsletter mails handed to SMTP per minute at most (NEWSLETTER_RATE_PER_MINUTE; 600 unless set). */
  newsletterRatePerMinute: number;
  /** The secret the mail provider's bounce webhook must present (MAIL_WEBHOOK_SECRET); unset: the webhook refuses. */
  mailWebhookSecret: string | undefined;
  /** DKIM signing of every mail (DKIM_PRIVATE_KEY or its _FILE, DKIM_SELECTOR, DKIM_DOMAIN: all three or none). */
  dkim: { privateKey: string; keySelector: string; domainName: string } | undefined;
  /**
   * The background job queue (services/jobs.ts): retries, first retry delay (doubling), how often workers look, and
   * whether this instance runs jobs at all (JOB_WORKERS=false: it only queues them) and recurring tasks (not in tests,
   * which call them directly).
   */
  jobs: { retryLimit: number; retryDelaySeconds: number; pollSeconds: number; work: boolean; recurring: boolean };
  /** Origins allowed to send state-changing requests (PUBLIC_URL's; plus loopback aliases when it is not set). */
  allowedOrigins: string[];
  /**
   * How many processes serve requests (WEB_CONCURRENCY): one per core in production (at most 4), else 1. With more
   * than one, the first process runs the database, migrations and seed, and its workers share the port (server/main.ts).
   */
  processes: number;
  /**
   * Backups (server/backup/): the folder they are written to (DATA_DIR/backups), how many the daily one keeps (in the
   * folder and in the bucket), and the S3 bucket and key prefix each verified backup is also uploaded to
   * (BACKUP_TARGET=s3://bucket/prefix/, through `s3`'s connection; unset: the folder only); whether a start backs up
   * before it applies new migrations (BACKUP_BEFORE_MIGRATION, default true).
   */
  backup: { dir: string; keep: number; remote: S3Location | undefined; beforeMigration: boolean };
  /**
   * The S3-compatible service that media and remote backups use (S3_ENDPOINT, unset for AWS itself; S3_REGION;
   * S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY or their _FILE, unset for the SDK's own chain such as an instance role;
   * S3_FORCE_PATH_STYLE, on by default when an endpoint is given, as MinIO and most others need).
   */
  s3: S3Settings;
  /**
   * Where uploaded media's files live: "database" (bytea rows, the default) or an S3 bucket (MEDIA_STORAGE=s3,
   * MEDIA_S3_BUCKET, MEDIA_S3_PREFIX) served from MEDIA_PUBLIC_URL (a CDN in front of the bucket) when set.
   */
  media: { storage: "database" } | { storage: "s3"; location: S3Location; publicUrl: string | undefined };
  /**
   * Outgoing webhooks (docs/decisions/078): `allowPrivate` (WEBHOOKS_ALLOW_PRIVATE=1, local testing only) lets
   * endpoints be http:// addresses and reach private, loopback and link-local networks; `retrySchedule`
   * (WEBHOOKS_RETRY_SCHEDULE) the wait before each attempt in seconds (Standard Webhooks' suggestion unless set);
   * `timeoutMs` how long an attempt waits for the answer (WEBHOOKS_TIMEOUT_SECONDS, 10).
   */
  webhooks: { allowPrivate: boolean; retrySchedule: readonly number[]; timeoutMs: number };
}

export interface S3Settings {
  endpoint: string | undefined;
  region: string;
  credentials: { accessKeyId: string; secretAccessKey: string } | undefined;
  forcePathStyle: boolean;
}

/** A bucket and the key prefix ("" or ending in "/") under which the product writes. */
export interface S3Location {
  bucket: string;
  prefix: string;
}

/**
 * The configuration as the environment gives it. Without AUTH_SECRET the secret is the one every host on the database
 * shares, kept in it: the start reads it once the database is open (server/db/secrets.ts).
 */
export type EnvConfig = Omit<Config, "authSecret"> & { authSecret: string | undefined };

export class ConfigError extends Error {}

/** Settings that may be read from a file instead (`NAME_FILE`: Docker and Kubernetes secrets, systemd credentials). */
export const FROM_FILE = [
  "AUTH_SECRET",
  "DATABASE_URL",
  "SMTP_URL",
  "PAYPAL_CLIENT_SECRET",
  "MAIL_WEBHOOK_SECRET",
  "DKIM_PRIVATE_KEY",
  "S3_ACCESS_KEY_ID",
  "S3_SECRET_ACCESS_KEY",
] as const;

/**
 * Parses the environment once; a bad value stops the start with a message naming the variable. Given AUTH_SECRET, the
 * configuration is complete; without it, the auth secret is the database's to give.
 */
export function loadConfig(env: NodeJS.ProcessEnv & { AUTH_SECRET: string }): Config;
export function loadConfig(env?: NodeJS.ProcessEnv): EnvConfig;
export function loadConfig(given: NodeJS.ProcessEnv = process.env): EnvConfig {
  const e = parseEnv(given);
  const paypalMode = checkedPayPalMode(e);
  const dataDir = path.resolve(e.DATA_DIR);
  mkdirSync(dataDir, { recursive: true });
  return { ...siteConfig(e, dataDir), ...mailAndPaymentConfig(e, paypalMode), ...workConfig(e, dataDir) };
}

type Env = z.infer<typeof envSchema>;

/** The environment parsed by its schema; a bad value (or file setting) stops the start with every problem named. */
function parseEnv(given: NodeJS.ProcessEnv): Env {
  const { env, fromFile, problems } = withFileSettings(given);
  const parsed = envSchema.safeParse(env);
  if (problems.length || !parsed.success) {
    const lines = [
      ...problems,
      ...(parsed.error?.issues ?? []).map((i) => {
        const name = i.path.join(".");
        return `  ${fromFile.has(name) ? `${name}_FILE (${fromFile.get(name)})` : name}: ${i.message}`;
      }),
    ];
    throw new ConfigError(`Invalid configuration:\n${lines.join("\n")}`);
  }
  return parsed.data;
}

/** The settings that go together are set together; PayPal's mode, as set or as the public address implies. */
function checkedPayPalMode(e: Env): EnvConfig["paypalMode"] {
  const dkimSet = [e.DKIM_PRIVATE_KEY, e.DKIM_SELECTOR, e.DKIM_DOMAIN].filter(Boolean).length;
  if (dkimSet > 0 && dkimSet < 3) {
    throw new ConfigError(
      "Invalid configuration:\n  DKIM_PRIVATE_KEY (or DKIM_PRIVATE_KEY_FILE), DKIM_SELECTOR and DKIM_DOMAIN: set all three to sign mail, or none.",
    );
  }
  if (e.MEDIA_STORAGE === "s3" && !e.MEDIA_S3_BUCKET) {
    throw new ConfigError("Invalid configuration:\n  MEDIA_S3_BUCKET: must be set when MEDIA_STORAGE=s3.");
  }
  if (Boolean(e.S3_ACCESS_KEY_ID) !== Boolean(e.S3_SECRET_ACCESS_KEY)) {
    throw new ConfigError(
      "Invalid configuration:\n  S3_ACCESS_KEY_ID and S3_SECRET_ACCESS_KEY (or their _FILE): set both, or neither to use the SDK's own credentials.",
    );
  }
  const paypalMode = e.PAYPAL_MODE ?? (!e.PUBLIC_URL || isLocalUrl(e.PUBLIC_URL) ? "simulator" : undefined);
  if (!paypalMode) {
    throw new ConfigError(
      `Invalid configuration:\n  PAYPAL_MODE: must be set when PUBLIC_URL (${e.PUBLIC_URL}) is a public address. ` +
        `Set PAYPAL_MODE=live for real payments, sandbox for PayPal's test site, or simulator for the built-in ` +
        `simulator (no money moves: anyone can get a membership for free).`,
    );
  }
  if (paypalMode !== "simulator" && (!e.PAYPAL_CLIENT_ID || !e.PAYPAL_CLIENT_SECRET)) {
    const missing = [
      ...(e.PAYPAL_CLIENT_ID ? [] : ["PAYPAL_CLIENT_ID"]),
      ...(e.PAYPAL_CLIENT_SECRET ? [] : ["PAYPAL_CLIENT_SECRET (or PAYPAL_CLIENT_SECRET_FILE)"]),
    ];
    throw new ConfigError(
      `Invalid configuration:\n  PAYPAL_MODE=${paypalMode} takes payments through PayPal's REST API: set ` +
        `${missing.join(" and ")}, the client id and secret of your REST app (developer.paypal.com, Apps & ` +
        `Credentials, ${paypalMode === "live" ? "Live" : "Sandbox"}). See docs/operations/paypal.md.`,
    );
  }
  return paypalMode;
}

/** The server, the database, the site's address and secrets, logs, limits and the first admin. */
function siteConfig(e: Env, dataDir: string) {
  return {
    env: e.NODE_ENV,
    port: e.PORT,
    host: e.HOST,
    dataDir,
    databaseUrl: e.DATABASE_URL,
    databasePoolSize: e.DATABASE_POOL_SIZE,
    databaseMaxConnections: e.DATABASE_MAX_CONNECTIONS,
    publicUrl: e.PUBLIC_URL ?? `http://localhost:${e.PORT}`,
    authSecret: e.AUTH_SECRET,
    trustProxy: e.TRUST_PROXY,
    logLevel: e.LOG_LEVEL,
    logFormat: e.LOG_FORMAT ?? (e.NODE_ENV === "development" ? "pretty" : undefined),
    metrics: { port: e.METRICS_PORT, host: e.METRICS_HOST, token: e.METRICS_TOKEN },
    seedDemoContent: e.SEED_DEMO_CONTENT,
    contentCacheTtlMs: e.CONTENT_CACHE_TTL_MS,
    publicFormLimit: e.RATE_LIMIT_PUBLIC_FORMS,
    apiKeyLimit: e.RATE_LIMIT_API_KEYS,
    adminEmail: e.ADMIN_EMAIL,
    adminPassword: e.ADMIN_PASSWORD,
    staffTwoFactor: e.ADMIN_2FA,
  } satisfies Partial<EnvConfig>;
}

/** Mail, PayPal, the site's time zone and the newsletters. */
function mailAndPaymentConfig(e: Env, paypalMode: EnvConfig["paypalMode"]) {
  return {
    smtpUrl: e.SMTP_URL,
    mailFrom: e.MAIL_FROM ?? `Atelier North <no-reply@${mailDomain(e.PUBLIC_URL)}>`,
    paypalMode,
    paypalCredentials:
      e.PAYPAL_CLIENT_ID && e.PAYPAL_CLIENT_SECRET
        ? { clientId: e.PAYPAL_CLIENT_ID, clientSecret: e.PAYPAL_CLIENT_SECRET }
        : null,
    paypalWebhookId: e.PAYPAL_WEBHOOK_ID ?? null,
    paypalReceiverEmail: e.PAYPAL_RECEIVER_EMAIL ?? `payments@${mailDomain(e.PUBLIC_URL)}`,
    timeZone: e.TZ ?? systemTimeZone(),
    generationDelayMs: e.GENERATION_DELAY_MS,
    newsletterRatePerMinute: e.NEWSLETTER_RATE_PER_MINUTE,
    mailWebhookSecret: e.MAIL_WEBHOOK_SECRET,
    dkim:
      e.DKIM_PRIVATE_KEY && e.DKIM_SELECTOR && e.DKIM_DOMAIN
        ? { privateKey: e.DKIM_PRIVATE_KEY, keySelector: e.DKIM_SELECTOR, domainName: e.DKIM_DOMAIN }
        : undefined,
  } satisfies Partial<EnvConfig>;
}

/** Background jobs, origins, processes, backups, S3 and the media store, outgoing webhooks. */
function workConfig(e: Env, dataDir: string) {
  return {
    // Tests: a short backoff and quick polling (few retries, one second apart, doubling).
    jobs: {
      retryLimit: e.JOB_RETRY_LIMIT ?? (e.NODE_ENV === "test" ? 2 : 8),
      retryDelaySeconds: e.JOB_RETRY_DELAY_SECONDS ?? (e.NODE_ENV === "test" ? 1 : 30),
      pollSeconds: e.JOB_POLL_SECONDS ?? (e.NODE_ENV === "test" ? 0.5 : 2),
      work: e.JOB_WORKERS === "true",
      recurring: e.NODE_ENV !== "test",
    },
    allowedOrigins: e.PUBLIC_URL
      ? [new URL(e.PUBLIC_URL).origin]
      : [`http://localhost:${e.PORT}`, `http://127.0.0.1:${e.PORT}`, `http://[::1]:${e.PORT}`],
    processes: e.WEB_CONCURRENCY ?? (e.NODE_ENV === "production" ? Math.min(availableParallelism(), 4) : 1),
    backup: {
      dir: path.resolve(e.BACKUP_DIR ?? path.join(dataDir, "backups")),
      keep: e.BACKUP_KEEP,
      remote: e.BACKUP_TARGET ? parseS3Target(e.BACKUP_TARGET) : undefined,
      beforeMigration: e.BACKUP_BEFORE_MIGRATION,
    },
    s3: {
      endpoint: e.S3_ENDPOINT,
      region: e.S3_REGION,
      credentials:
        e.S3_ACCESS_KEY_ID && e.S3_SECRET_ACCESS_KEY
          ? { accessKeyId: e.S3_ACCESS_KEY_ID, secretAccessKey: e.S3_SECRET_ACCESS_KEY }
          : undefined,
      forcePathStyle: e.S3_FORCE_PATH_STYLE ? e.S3_FORCE_PATH_STYLE === "true" : Boolean(e.S3_ENDPOINT),
    },
    media:
      e.MEDIA_STORAGE === "s3" && e.MEDIA_S3_BUCKET
        ? {
            storage: "s3",
            location: { bucket: e.MEDIA_S3_BUCKET, prefix: e.MEDIA_S3_PREFIX },
            publicUrl: e.MEDIA_PUBLIC_URL,
          }
        : { storage: "database" },
    webhooks: {
      allowPrivate: e.WEBHOOKS_ALLOW_PRIVATE,
      retrySchedule: e.WEBHOOKS_RETRY_SCHEDULE ?? RETRY_SCHEDULE_SECONDS,
      timeoutMs: Math.round(e.WEBHOOKS_TIMEOUT_SECONDS * 1000),
    },
  } satisfies Partial<EnvConfig>;
}

/**
 * `AUTH_SECRET_FILE=/run/secrets/auth` stands for AUTH_SECRET with that file's content (surrounding white space and the
 * final line break dropped); setting both is a mistake, and an unreadable file stops the start. Values never appear in
 * a message.
 */
function withFileSettings(given: NodeJS.ProcessEnv) {
  const env = { ...given };
  const fromFile = new Map<string, string>();
  const problems: string[] = [];
  for (const name of FROM_FILE) {
    const file = emptyToUndefined(given[`${name}_FILE`]) as string | undefined;
    if (file === undefined) continue;
    if (emptyToUndefined(given[name]) !== undefined) {
      problems.push(`  ${name} and ${name}_FILE: both are set; keep one`);
      continue;
    }
    try {
      env[name] = readFileSync(file, "utf8").trim();
      fromFile.set(name, file);
    } catch (error) {
      const code = (error as NodeJS.ErrnoException).code ?? "unreadable";
      problems.push(`  ${name}_FILE: ${file} cannot be read (${code})`);
    }
  }
  return { env, fromFile, problems };
}

/** s3://bucket/some/prefix → the bucket and "some/prefix/" (a prefix always ends in "/" unless empty). */
export function parseS3Target(target: string): S3Location {
  const [, bucket = "", rest = ""] = /^s3:\/\/([^/]+)\/?(.*)$/.exec(target) ?? [];
  const prefix = rest.replace(/^\/+|\/+$/g, "");
  return { bucket, prefix: prefix ? `${prefix}/` : "" };
}

/** true → 1 hop, a count of hops, or proxy addresses (IPs, CIDR ranges, or Express's loopback/linklocal/uniquelocal). */
function parseTrustProxy(value: string): false | number | string[] | undefined {
  const v = value.trim().toLowerCase();
  if (v === "false" || v === "0") return false;
  if (v === "true") return 1;
  if (/^\d+$/.test(v)) return Number(v);
  const entries = v.split(",").map((a) => a.trim());
  const valid = entries.every((a) => {
    if (["loopback", "linklocal", "uniquelocal"].includes(a)) return true;
    const [ip, bits, extra] = a.split("/");
    const family = isIP(ip ?? "");
    if (!family || extra !== undefined) return false;
    if (bits === undefined) return true;
    return /^\d+$/.test(bits) && Number(bits) <= (family === 4 ? 32 : 128);
  });
  return valid && entries.length ? entries : undefined;
}

/** An address only this machine reaches: localhost names and loopback IPs. */
export function isLocalUrl(address: string): boolean {
  const host = new URL(address).hostname.replace(/^\[|\]$/g, "");
  return host === "localhost" || host.endsWith(".localhost") || /^127\.\d+\.\d+\.\d+$/.test(host) || host === "::1";
}

/** The site's host name for default addresses; "example.com" for localhost, which is no mail domain. */
function mailDomain(publicUrl: string | undefined): string {
  const host = publicUrl ? new URL(publicUrl).hostname : "localhost";
  return host === "localhost" || /^[\d.]+$/.test(host) || host.startsWith("[") ? "example.com" : host;
}

/** A random secret made on first start and kept in DATA_DIR/secrets (mode 0600); never logged. */
export function persistedSecret(dataDir: string, name: string): string {
  const dir = path.join(dataDir, "secrets");
  const file = path.join(dir, name);
  if (existsSync(file)) return readFileSync(file, "utf8").trim();
  mkdirSync(dir, { recursive: true, mode: 0o700 });
  const secret = randomBytes(32).toString("base64url");
  writeFileSync(file, secret + "\n", { mode: 0o600, flag: "wx" });
  chmodSync(file, 0o600);
  return secret;
}
