import path from "node:path";
import { FROM_FILE, type SettingName } from "./config";

/**
 * What each setting of server/config.ts means, for docs/configuration.md (written by `npm run docs:config`; a unit test
 * fails when the file is stale or a setting has no entry here: the type asks for every name the schema reads).
 */
export interface SettingDoc {
  group: (typeof GROUPS)[number];
  /** The default as a reader should see it (Markdown), or undefined for "unset". */
  default?: string;
  /** What it does (Markdown); links are relative to docs/. */
  text: string;
}

export const GROUPS = [
  "The site",
  "Database",
  "Sign-in and secrets",
  "Mail and newsletters",
  "Payments",
  "Webhooks and the API",
  "Background jobs and processes",
  "Backups",
  "Media and S3 storage",
  "Logs and metrics",
  "Development",
] as const;

export const SETTINGS: Record<SettingName, SettingDoc> = {
  PORT: { group: "The site", default: "`3000`", text: "HTTP port." },
  HOST: {
    group: "The site",
    default: "`127.0.0.1`",
    text: "Interface to listen on (`0.0.0.0` behind a proxy or in a container; `::` for IPv6 too).",
  },
  PUBLIC_URL: {
    group: "The site",
    default: "`http://localhost:PORT`",
    text:
      "The site's public address, for canonical links, the sitemap, links in mail and PayPal's notify and return " +
      "addresses. Also the only origin allowed to post forms when set; unset, every loopback name of `PORT` is.",
  },
  DATA_DIR: {
    group: "The site",
    default: "`./data`",
    text:
      "Where the app keeps its state: the embedded database (`postgres/`), generated secrets (`secrets/`), mail " +
      "without SMTP (`outbox/`), backups (`backups/`), the app lock.",
  },
  TZ: {
    group: "The site",
    default: "the machine's",
    text: "The time zone of order dates, expiry dates and every date shown (an IANA name such as `Europe/London`).",
  },
  TRUST_PROXY: {
    group: "The site",
    default: "`false`",
    text:
      "Behind a reverse proxy: the number of proxies in front of the app (`true` means 1), or their addresses " +
      "(`10.0.0.1`, `10.0.0.0/8`, `loopback`). The client IP (rate limits) is then read from the right of " +
      "`X-Forwarded-For`, never from its client-written left end.",
  },
  RATE_LIMIT_PUBLIC_FORMS: {
    group: "The site",
    default: "`10`",
    text: "Contact messages and newsletter signups accepted per IP in ten minutes.",
  },
  CONTENT_CACHE_TTL_MS: {
    group: "The site",
    default: "`60000`",
    text: "Longest life of the in-memory content snapshot (changes normally drop it at once).",
  },
  SEED_DEMO_CONTENT: {
    group: "The site",
    default: "`true`",
    text: "`false` starts an empty database without demo content or demo catalogue items.",
  },
  GENERATION_DELAY_MS: {
    group: "The site",
    default: "`9000`",
    text: "The item generator's wait before it shows a template, 0 to 60000 (0 in tests).",
  },
  DATABASE_URL: {
    group: "Database",
    text:
      "A `postgres://` URL. Unset: the embedded PostgreSQL in `DATA_DIR/postgres`. Set: that server (PostgreSQL 15 " +
      "or later); several hosts may share it ([scaling](operations/scaling.md)).",
  },
  DATABASE_POOL_SIZE: {
    group: "Database",
    default: "`10`",
    text:
      "Each process's pool (1 to 200; its job queue has 4 more). The start refuses processes × (pool + 4) + pool " +
      "above the server's `max_connections` (or `DATABASE_MAX_CONNECTIONS`) and says what to change.",
  },
  DATABASE_MAX_CONNECTIONS: {
    group: "Database",
    default: "what the server accepts",
    text:
      "How many connections all the app's hosts may open together; behind PgBouncer, what PgBouncer accepts. Unset: " +
      "the server's `max_connections` less its reserved ones.",
  },
  AUTH_SECRET: {
    group: "Sign-in and secrets",
    default: "generated",
    text:
      "Signs sessions, role cookies and mailed links; 32 characters or more. Unset: generated once, kept in the " +
      "database and shared by its hosts ([decision 035](decisions/035-secrets-shared-through-the-database.md)). " +
      "Never logged.",
  },
  ADMIN_EMAIL: {
    group: "Sign-in and secrets",
    default: "`admin@example.com`",
    text:
      "The first administrator, created on the first start of an empty database (an existing account with that " +
      "address becomes the administrator). Ignored once an administrator exists.",
  },
  ADMIN_PASSWORD: {
    group: "Sign-in and secrets",
    default: "random, printed once",
    text:
      "That administrator's password, under the staff rule (at least 12 characters, not a common password: the " +
      "start refuses one that is not). Unset: a random one, printed once in the first start's log.",
  },
  ADMIN_2FA: {
    group: "Sign-in and secrets",
    default: "`required`",
    text:
      "Staff must sign in with a code from an authenticator app: one without it is sent to `/account/security` to " +
      "turn it on before the back office opens. `optional` lifts that (a warning is logged at start); people who " +
      "turned it on are still asked for their code ([decision 040](decisions/040-two-factor-sign-in.md)).",
  },
  RATE_LIMIT_API_KEYS: {
    group: "Webhooks and the API",
    default: "`600`",
    text: "REST requests one API key may make per minute (then 429 with `Retry-After`).",
  },
  SMTP_URL: {
    group: "Mail and newsletters",
    text:
      "`smtp://user:password@host:587` or `smtps://…:465`. Unset: mail is written to `DATA_DIR/outbox/*.eml`, the " +
      "file logged.",
  },
  MAIL_FROM: {
    group: "Mail and newsletters",
    default: "`Atelier North <no-reply@HOST>`",
    text: "The sender of every mail; `HOST` is `PUBLIC_URL`'s host name (`example.com` for a local address).",
  },
  NEWSLETTER_RATE_PER_MINUTE: {
    group: "Mail and newsletters",
    default: "`600`",
    text:
      "Newsletter mails handed to SMTP per minute at most, per newsletter (1 to 600000); set it to what your mail " +
      "provider allows.",
  },
  MAIL_WEBHOOK_SECRET: {
    group: "Mail and newsletters",
    text:
      "16 characters or more: the password the mail provider's bounce and complaint webhook presents by basic auth. " +
      "Unset: the webhooks refuse every call.",
  },
  DKIM_PRIVATE_KEY: {
    group: "Mail and newsletters",
    text:
      "With `DKIM_SELECTOR` and `DKIM_DOMAIN`: every mail is DKIM-signed with this PEM key for `DKIM_DOMAIN` under " +
      "`DKIM_SELECTOR`. One or two of the three alone stop the start.",
  },
  DKIM_SELECTOR: { group: "Mail and newsletters", text: "The DKIM selector (see `DKIM_PRIVATE_KEY`)." },
  DKIM_DOMAIN: { group: "Mail and newsletters", text: "The signing domain (see `DKIM_PRIVATE_KEY`)." },
  PAYPAL_MODE: {
    group: "Payments",
    default: "`simulator` on a local address",
    text:
      "`live`, `sandbox` or `simulator`. Unset: `simulator` when `PUBLIC_URL` is unset or a local address; with a " +
      "public `PUBLIC_URL` the start refuses until it is set (no free memberships by accident).",
  },
  PAYPAL_CLIENT_ID: {
    group: "Payments",
    text:
      "The client id of the PayPal REST app (PayPal Checkout, refunds, webhooks). Required with `PAYPAL_MODE=live` " +
      "or `sandbox`: the start refuses without it. The simulator needs none ([PayPal](operations/paypal.md)).",
  },
  PAYPAL_CLIENT_SECRET: {
    group: "Payments",
    text: "That app's secret; required with `PAYPAL_CLIENT_ID`.",
  },
  PAYPAL_WEBHOOK_ID: {
    group: "Payments",
    default: "registered at the start",
    text:
      "The id of the app's webhook in the PayPal REST app (`PUBLIC_URL/api/payments/paypal/webhook`); notifications " +
      "are verified against it. Unset, the app finds its webhook by address or registers it for every event it acts on.",
  },
  PAYPAL_RECEIVER_EMAIL: {
    group: "Payments",
    default: "`payments@HOST`",
    text: "The receiving PayPal account while the back office has no Payment account record (that record wins once added).",
  },
  WEBHOOKS_ALLOW_PRIVATE: {
    group: "Webhooks and the API",
    default: "`0`",
    text:
      "`1` for local testing only: webhook endpoints may be `http://` addresses and reach this machine and private, " +
      "loopback, link-local or unique-local networks. Unset, such addresses are refused when an endpoint is saved " +
      "and again at every delivery.",
  },
  WEBHOOKS_RETRY_SCHEDULE: {
    group: "Webhooks and the API",
    default: "`0,5,300,1800,7200,18000,36000,36000`",
    text: "The wait in seconds before each attempt of a webhook delivery (the tests use `0,0,0`).",
  },
  WEBHOOKS_TIMEOUT_SECONDS: {
    group: "Webhooks and the API",
    default: "`10`",
    text: "How long a webhook delivery waits for the receiver's answer.",
  },
  JOB_RETRY_LIMIT: {
    group: "Background jobs and processes",
    default: "`8`",
    text: "Retries of a failed background job (a mail SMTP refused) before it shows as failed on `/background-jobs`.",
  },
  JOB_RETRY_DELAY_SECONDS: {
    group: "Background jobs and processes",
    default: "`30`",
    text: "The first retry's delay; each next one about doubles, up to an hour (8 retries span about 2 to 3 hours).",
  },
  JOB_POLL_SECONDS: {
    group: "Background jobs and processes",
    default: "`2`",
    text: "How often an idle worker looks for background jobs (0.5 to 60).",
  },
  JOB_WORKERS: {
    group: "Background jobs and processes",
    default: "`true`",
    text: "`false`: this instance queues background jobs but leaves running them to the others.",
  },
  WEB_CONCURRENCY: {
    group: "Background jobs and processes",
    default: "one per core, at most 4",
    text:
      "How many processes serve requests (1 to 16). `npm start` runs one per core (at most 4); `npm run dev` and the " +
      "tests run 1. With more than one, the first process runs the database, migrations and seed and restarts a " +
      "worker that dies; the workers share the port.",
  },
  BACKUP_DIR: {
    group: "Backups",
    default: "`DATA_DIR/backups`",
    text:
      "Where backups are written: the daily one, those started in the back office, `npm run backup` and the one " +
      "before a migration.",
  },
  BACKUP_KEEP: {
    group: "Backups",
    default: "`14`",
    text:
      "How many backups the daily one keeps (1 to 1000), in `BACKUP_DIR` and in `BACKUP_TARGET`'s bucket each; older " +
      "ones are removed after each.",
  },
  BACKUP_BEFORE_MIGRATION: {
    group: "Backups",
    default: "`true`",
    text:
      "A start that brings new migrations backs the database up into `BACKUP_DIR` first (embedded or " +
      "`DATABASE_URL`; with several hosts, the one that migrates). `false` skips it, for a provider that snapshots the " +
      "database itself: take that snapshot before an upgrade ([upgrading](operations/upgrading.md)).",
  },
  BACKUP_TARGET: {
    group: "Backups",
    text:
      "`s3://bucket/prefix/`: each backup is also uploaded there once written and verified, through the `S3_*` " +
      "connection, and checked there ([backups in a bucket](operations/backups-remote.md)). Unset: backups stay in `BACKUP_DIR` only.",
  },
  MEDIA_STORAGE: {
    group: "Media and S3 storage",
    default: "`database`",
    text:
      "Where uploaded images' files live: `database` (in PostgreSQL, every host serves them) or `s3` (the " +
      "`MEDIA_S3_BUCKET` bucket through the `S3_*` connection; [storage](operations/storage.md)).",
  },
  MEDIA_S3_BUCKET: { group: "Media and S3 storage", text: "The media bucket; required with `MEDIA_STORAGE=s3`." },
  MEDIA_S3_PREFIX: {
    group: "Media and S3 storage",
    default: "`media/`",
    text: "The key prefix of media objects in that bucket (folder names ending in `/`).",
  },
  MEDIA_PUBLIC_URL: {
    group: "Media and S3 storage",
    text:
      "The address pages load media from, such as a CDN in front of the bucket (`https://cdn.agency.example`). Unset: " +
      "the app serves them itself.",
  },
  S3_ENDPOINT: {
    group: "Media and S3 storage",
    default: "AWS",
    text:
      "The S3-compatible service's address (MinIO, Cloudflare R2, Backblaze B2, Scaleway…). Unset: Amazon S3 in " +
      "`S3_REGION`.",
  },
  S3_REGION: { group: "Media and S3 storage", default: "`us-east-1`", text: "The bucket's region." },
  S3_ACCESS_KEY_ID: {
    group: "Media and S3 storage",
    default: "the SDK's own",
    text:
      "With `S3_SECRET_ACCESS_KEY`: the access key. Unset (both): the AWS SDK's own chain (`AWS_*` variables, an " +
      "instance or task role).",
  },
  S3_SECRET_ACCESS_KEY: { group: "Media and S3 storage", text: "The access key's secret (see `S3_ACCESS_KEY_ID`)." },
  S3_FORCE_PATH_STYLE: {
    group: "Media and S3 storage",
    default: "`true` with `S3_ENDPOINT`",
    text:
      "`true`: addresses such as `https://endpoint/bucket/key`, which MinIO and most S3-compatible services need; " +
      "`false`: `https://bucket.endpoint/key`.",
  },
  LOG_LEVEL: {
    group: "Logs and metrics",
    default: "`info`",
    text: "`debug`, `info`, `warn`, `error` or `silent`; `debug` also shows the database server's own log.",
  },
  LOG_FORMAT: {
    group: "Logs and metrics",
    default: "by where it runs",
    text:
      "`json` (one object a line) or `pretty` (readable). Unset: `pretty` in development and in a terminal, else " +
      "`json`.",
  },
  METRICS_PORT: {
    group: "Logs and metrics",
    text:
      "A port answering Prometheus's `/metrics` (every worker summed), on `METRICS_HOST` " +
      "([observability](operations/observability.md)). Unset: no metrics port.",
  },
  METRICS_HOST: {
    group: "Logs and metrics",
    default: "`127.0.0.1`",
    text: "The interface of `METRICS_PORT`: an internal address for a Prometheus on another machine, never a public one.",
  },
  METRICS_TOKEN: {
    group: "Logs and metrics",
    text:
      "32 to 200 characters: `/metrics` on the site's port for `Authorization: Bearer <token>`, and required on " +
      "`METRICS_PORT` too. Unset: no `/metrics` on the site.",
  },
  NODE_ENV: {
    group: "Development",
    default: "`production`",
    text: "`npm run dev` sets `development`; the tests set `test`. Leave it unset otherwise.",
  },
};

/**
 * docs/configuration.md: every setting by group, with its default and whether a `_FILE` variant reads it from a file;
 * formatted by prettier as `npm run lint` checks it.
 */
export async function configurationMarkdown(): Promise<string> {
  const fromFile = new Set<string>(FROM_FILE);
  const lines = [
    "# Configuration",
    "",
    "<!-- Written by `npm run docs:config` from server/config-docs.ts: edit that file, not this one. -->",
    "",
    "Every setting is an environment variable, read once at start (`server/config.ts`): a bad value stops the start " +
      "with a message naming it. None is needed for a local start. A setting listed with a `_FILE` twin may be read " +
      "from a file instead: `NAME_FILE=/run/secrets/name` (Docker and Kubernetes secrets, systemd credentials), its " +
      "content without surrounding white space; setting both is refused. Secrets are never logged.",
  ];
  for (const group of GROUPS) {
    lines.push("", `## ${group}`, "");
    for (const [name, doc] of Object.entries(SETTINGS) as [SettingName, SettingDoc][]) {
      if (doc.group !== group) continue;
      const file = fromFile.has(name) ? ` or \`${name}_FILE\`` : "";
      lines.push(`- \`${name}\`${file} (default: ${doc.default ?? "unset"}): ${doc.text}`);
    }
  }
  const prettier = await import("prettier");
  const options = (await prettier.resolveConfig(path.resolve("docs/configuration.md"))) ?? {};
  return prettier.format(lines.join("\n") + "\n", { ...options, parser: "markdown", proseWrap: "always" });
}
