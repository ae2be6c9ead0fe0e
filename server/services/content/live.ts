import { asc } from "drizzle-orm";
import type pg from "pg";
import { sections, type ContentSnapshot } from "#domain/registry.ts";
import { isDatabaseUnavailable } from "#server/db/client.ts";
import { contentEntries } from "#server/db/schema.ts";
import { CHANNEL, toRecord, type ContentRecord, type Live } from "./model.ts";

function emptySnapshot(): ContentSnapshot {
  return Object.fromEntries(sections.map((s) => [s.type, []])) as unknown as ContentSnapshot;
}

export function invalidate(live: Live) {
  live.generation++;
  live.snapshot = undefined;
}

async function load(live: Live): Promise<ContentSnapshot> {
  const startedAt = live.generation;
  const rows = await live.db
    .select({ id: contentEntries.id, type: contentEntries.type, data: contentEntries.data })
    .from(contentEntries)
    .orderBy(asc(contentEntries.type), asc(contentEntries.position), asc(contentEntries.createdAt));
  const value = emptySnapshot() as unknown as Record<string, ContentRecord[]>;
  for (const row of rows) value[row.type]?.push(toRecord(row));
  const result = value as unknown as ContentSnapshot;
  live.lastGood = result;
  // A change that arrived while we were reading must not be hidden behind a stale snapshot.
  if (startedAt === live.generation) live.snapshot = { value: result, loadedAt: live.now() };
  return result;
}

/**
 * LISTEN on a connection of its own, for as long as the service runs: a lost connection is replaced, with a
 * growing wait (0.5 s doubling up to 30 s) while the database is away, and the snapshot is dropped both when the
 * connection is lost and when it is back, since changes made in between were not heard.
 */
export async function listen(live: Live) {
  const { logger } = live;
  live.reconnectTimer = undefined;
  if (live.closed) return;
  let client: pg.PoolClient | undefined;
  try {
    client = await live.pool.connect();
    const connected = client;
    let lost = false;
    const onLost = (error?: Error) => {
      if (lost || live.closed) return; // at close the connection was handed back already
      lost = true;
      if (live.listener === connected) live.listener = undefined;
      connected.release(true);
      logger.warn({ error }, "content change listener lost its connection; reconnecting");
      invalidate(live);
      scheduleReconnect(live);
    };
    client.on("notification", () => invalidate(live));
    client.on("error", onLost);
    client.on("end", () => onLost());
    await client.query(`listen ${CHANNEL}`);
    if (live.closed) {
      connected.release();
      return;
    }
    live.listener = connected;
    if (live.attempts > 0) logger.info({ attempts: live.attempts }, "content change listener reconnected");
    live.attempts = 0;
    invalidate(live); // whatever changed while we were not listening
  } catch (error) {
    client?.release(true);
    if (live.closed) return;
    logger.warn({ error, attempts: live.attempts }, "could not listen for content changes; retrying");
    scheduleReconnect(live);
  }
}

function scheduleReconnect(live: Live) {
  if (live.closed || live.reconnectTimer) return;
  const delay = Math.min(30_000, 500 * 2 ** Math.min(live.attempts, 6));
  live.attempts++;
  live.reconnectTimer = setTimeout(() => void listen(live), delay * (0.8 + Math.random() * 0.4));
  live.reconnectTimer.unref();
}

export async function close(live: Live) {
  live.closed = true;
  if (live.reconnectTimer) clearTimeout(live.reconnectTimer);
  const l = live.listener;
  live.listener = undefined;
  if (l) {
    await l.query(`unlisten ${CHANNEL}`).catch(() => undefined);
    l.release();
  }
}

/** Every section's records, in display order. */
export async function snapshot(live: Live): Promise<ContentSnapshot> {
  const { now } = live;
  if (live.snapshot && now() - live.snapshot.loadedAt < live.ttlMs) return live.snapshot.value;
  // The database failed a moment ago: the last snapshot read, rather than another wait for it.
  if (live.lastGood && now() - live.failedAt < 2000) return live.lastGood;
  // A load started before the latest change would hand its readers the content as it was: such a load is not
  // shared, and a new one starts (a page rendered for this generation must show this generation's content).
  if (!live.loading || live.loading.generation !== live.generation) {
    const started = { generation: live.generation, promise: load(live) };
    live.loading = started;
    void started.promise.then(
      () => (live.loading === started ? (live.loading = undefined) : undefined),
      () => (live.loading === started ? (live.loading = undefined) : undefined),
    );
  }
  try {
    return await live.loading.promise;
  } catch (error) {
    if (!live.lastGood || !isDatabaseUnavailable(error)) throw error;
    live.failedAt = now();
    live.logger.warn({ error }, "the database is unreachable; serving the last content read");
    return live.lastGood;
  }
}
