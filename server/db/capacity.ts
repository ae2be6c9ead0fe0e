import { createHash } from "node:crypto";
import { hostname } from "node:os";
import type pg from "pg";
import { ConfigError, type EnvConfig } from "../config";

/** What this module tells the operator (the app's logger, or any that takes a message). */
type Notices = { info(message: string): void; warn(message: string): void };

/** The job queue's own pool in each serving process (server/services/jobs.ts: PgBoss's `max`). */
export const JOB_QUEUE_CONNECTIONS = 4;

type Sizing = Pick<EnvConfig, "processes" | "databasePoolSize">;

/**
 * The most connections one host opens: each serving process's pool and job queue, and with worker processes the first
 * process's pool too (it prepares the database, then its idle connections close after 30 s).
 */
export function connectionsOfHost({ processes, databasePoolSize: pool }: Sizing): number {
  return processes * (pool + JOB_QUEUE_CONNECTIONS) + (processes > 1 ? pool : 0);
}

/** The largest DATABASE_POOL_SIZE with which `hosts` hosts like this one stay within `limit` (0: none does). */
export function poolSizeThatFits(limit: number, hosts: number, processes: number): number {
  const pools = hosts * (processes + (processes > 1 ? 1 : 0));
  return Math.max(0, Math.floor((limit - hosts * processes * JOB_QUEUE_CONNECTIONS) / pools));
}

/**
 * The pool's name on the server, `atelier 1a2b3c4d max=66`: this host (its machine, DATA_DIR and port: the same in
 * its worker processes and after a restart) and the most it opens. Every process keeps a connection open (the content
 * listener), so each running host is seen in pg_stat_activity with its claim.
 */
export function applicationName(config: Sizing & Pick<EnvConfig, "dataDir" | "port">): string {
  const host = createHash("sha256").update(`${hostname()}\0${config.dataDir}\0${config.port}`).digest("hex");
  return `atelier ${host.slice(0, 8)} max=${connectionsOfHost(config)}`;
}

const TAGGED = /^atelier ([0-9a-f]{8}) max=(\d+)$/;

/** The pool settings of a process: DATABASE_POOL_SIZE connections, named after this host and its claim. */
export const poolOptions = (config: Sizing & Pick<EnvConfig, "dataDir" | "port">) => ({
  max: config.databasePoolSize,
  applicationName: applicationName(config),
});

export interface ConnectionBudget {
  /** What the app's hosts may open together: DATABASE_MAX_CONNECTIONS, else max_connections less the reserved. */
  limit: number;
  /** The server's max_connections and its reserved connections. */
  server: { max: number; reserved: number };
  thisHost: number;
  /** The other hosts of this app seen on the server, with the most each opens. */
  otherHosts: number[];
  /** Connections open now that belong to no host of the app (psql, backups, monitoring, other programs). */
  otherClients: number;
}

/** Reads the server's limit and who else is connected (pg_stat_activity shows every session's application_name). */
export async function connectionBudget(
  pool: pg.Pool,
  config: Sizing & Pick<EnvConfig, "dataDir" | "port" | "databaseMaxConnections">,
): Promise<ConnectionBudget> {
  const settings = await pool.query<{ max: number; superuser: number; reserved: number }>(
    `select current_setting('max_connections')::int as max,
            current_setting('superuser_reserved_connections')::int as superuser,
            coalesce(current_setting('reserved_connections', true), '0')::int as reserved`,
  );
  const { max, superuser, reserved } = settings.rows[0]!;
  const sessions = await pool.query<{ name: string | null; open: number }>(
    `select application_name as name, count(*)::int as open from pg_stat_activity
     where backend_type = 'client backend' and pid <> pg_backend_pid() group by 1`,
  );
  const mine = TAGGED.exec(applicationName(config))![1];
  const claims = new Map<string, number>();
  let otherClients = 0;
  for (const { name, open } of sessions.rows) {
    const tagged = TAGGED.exec(name ?? "");
    if (tagged) {
      if (tagged[1] !== mine) claims.set(tagged[1]!, Number(tagged[2]));
    } else if (!name?.startsWith("atelier-jobs")) {
      // The job queues' connections are within their hosts' claims.
      otherClients += open;
    }
  }
  return {
    limit: config.databaseMaxConnections ?? max - superuser - reserved,
    server: { max, reserved: superuser + reserved },
    thisHost: connectionsOfHost(config),
    otherHosts: [...claims.values()],
    otherClients,
  };
}

/**
 * At start: refuses a host whose processes alone may open more connections than the server accepts (the last ones
 * would be refused under load, as 503s), and warns when the hosts on this database together may. Each message says
 * what to change.
 */
export async function checkConnections(
  pool: pg.Pool,
  config: Sizing & Pick<EnvConfig, "dataDir" | "port" | "databaseMaxConnections">,
  logger: Notices,
): Promise<ConnectionBudget> {
  const budget = await connectionBudget(pool, config);
  const { limit, thisHost, otherHosts, otherClients } = budget;
  const { processes, databasePoolSize: size } = config;
  const server = config.databaseMaxConnections
    ? `DATABASE_MAX_CONNECTIONS is ${limit}`
    : `the server accepts ${limit} (max_connections ${budget.server.max} less ${budget.server.reserved} reserved)`;
  const sum =
    `${processes} process${processes > 1 ? "es" : ""} × (DATABASE_POOL_SIZE ${size} + ${JOB_QUEUE_CONNECTIONS} for the ` +
    `job queue)${processes > 1 ? ` + ${size} for the first process` : ""}`;
  const elsewhere = "behind PgBouncer, set DATABASE_MAX_CONNECTIONS to what PgBouncer accepts";
  if (thisHost > limit) {
    const fits = poolSizeThatFits(limit, 1, processes);
    throw new ConfigError(
      `This host may open up to ${thisHost} connections to PostgreSQL (${sum}), but ${server}. ` +
        (fits > 0 ? `Set DATABASE_POOL_SIZE=${fits} or lower, ` : `Lower WEB_CONCURRENCY, `) +
        `or raise max_connections on the server; ${elsewhere}.`,
    );
  }
  const together = thisHost + otherHosts.reduce((a, b) => a + b, 0) + otherClients;
  if (together > limit) {
    const hosts = otherHosts.length + 1;
    const fits = poolSizeThatFits(limit - otherClients, hosts, processes);
    logger.warn(
      `The hosts of this app on this database may open up to ${together} connections together, but ${server}: ` +
        `this host ${thisHost} (${sum}), ${otherHosts.length} other host${otherHosts.length === 1 ? "" : "s"} ` +
        `${otherHosts.join(" + ") || 0}, other clients ${otherClients} open now. Under load the last ones would be ` +
        `refused. ` +
        (fits > 0
          ? `Set DATABASE_POOL_SIZE=${fits} or lower on each of the ${hosts} hosts, `
          : `Lower WEB_CONCURRENCY, `) +
        `or raise max_connections, or put PgBouncer in front (docs/operations/scaling.md); ${elsewhere}.`,
    );
  }
  return budget;
}
