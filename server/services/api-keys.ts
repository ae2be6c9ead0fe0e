import { createHash, randomBytes, timingSafeEqual } from "node:crypto";
import { and, desc, eq, isNull, lt, or, sql } from "drizzle-orm";
import {
  apiKeyInputSchema,
  keyActorName,
  keyLabel,
  KEY_PREFIX,
  publicIdOf,
  type KeyAccess,
  type KeyGrant,
} from "#domain/api-keys.ts";
import type { StaffArea } from "#domain/capabilities.ts";
import type { PageInfo } from "#domain/pagination.ts";
import { parseWith } from "#domain/validation.ts";
import type { Db } from "../db/client";
import { apiKeys } from "../db/schema";
import { badRequest, isId, notFound } from "../lib/errors";
import { pageOf } from "../lib/paging";
import { withDeps } from "../lib/with-deps";
import { audited, type Actor } from "./activity";
import type { RateLimiter, RateLimitRule } from "./rate-limit";

type Row = typeof apiKeys.$inferSelect;

/** A key as the back office and the REST API list it: never its secret nor its hash. */
export interface ApiKeyRecord {
  _id: string;
  name: string;
  /** `atl_` and its public id, to tell keys apart. */
  label: string;
  areas: StaffArea[];
  access: KeyAccess;
  createdBy: string;
  createdAt: string;
  lastUsedAt: string | null;
  revokedAt: string | null;
  revokedBy: string | null;
}

const toRecord = (r: Row): ApiKeyRecord => ({
  _id: r.id,
  name: r.name,
  label: keyLabel(r.publicId),
  areas: r.areas as StaffArea[],
  access: r.access,
  createdBy: r.createdByEmail,
  createdAt: r.createdAt.toISOString(),
  lastUsedAt: r.lastUsedAt?.toISOString() ?? null,
  revokedAt: r.revokedAt?.toISOString() ?? null,
  revokedBy: r.revokedByEmail,
});

/** A key that was checked: the principal a keyed REST call runs for (server/http/guards.ts makes it a viewer). */
export interface ApiKeyPrincipal extends KeyGrant {
  id: string;
  publicId: string;
  name: string;
}

/** Why a keyed request is not let in at all: an unknown or revoked key (401), or one over its rate limit (429). */
export type KeyCheck =
  | { key: ApiKeyPrincipal }
  | { refused: { status: 401; error: string } }
  | { refused: { status: 429; error: string; retryAfterSeconds: number } };

export const UNKNOWN_KEY = "This API key is not known, or it was revoked. Ask an Admin for a key.";

/** How often a key's "last used" is written: at most once a minute per key, not once per request. */
const LAST_USED_EVERY_MS = 60_000;

const sha256 = (text: string) => createHash("sha256").update(text).digest("hex");

/** The audited fields of a key (never its secret or hash). */
const audited_ = (r: Pick<Row, "name" | "areas" | "access" | "publicId">) => ({
  name: r.name,
  key: keyLabel(r.publicId),
  areas: r.areas.join(", "),
  access: r.access,
});

interface ApiKeysDeps {
  db: Db;
  limiter: RateLimiter;
  /** Requests a key may make per minute (RATE_LIMIT_API_KEYS). */
  perMinute: number;
  now?: () => Date;
}

/** What the service's functions work with, built once by the factory (the rate rule, the prepared lookup). */
function keysOf(deps: ApiKeysDeps) {
  const { db, limiter } = deps;
  const now = deps.now ?? (() => new Date());
  const rule: RateLimitRule = { name: "api-key", limit: deps.perMinute, windowMs: 60_000 };
  // Read on every keyed request: prepared once per connection (an indexed lookup by public id).
  const keyByPublicId = db
    .select()
    .from(apiKeys)
    .where(and(eq(apiKeys.publicId, sql.placeholder("publicId")), isNull(apiKeys.revokedAt)))
    .limit(1)
    .prepare("api_key_by_public_id");
  return { db, limiter, now, rule, keyByPublicId };
}

type Keys = ReturnType<typeof keysOf>;

/** One page of keys, newest first (revoked ones stay listed, marked, for the record). */
async function list(
  { db }: Keys,
  options: { page?: unknown; perPage: number },
): Promise<{ keys: ApiKeyRecord[]; page: PageInfo }> {
  const { rows, page } = await pageOf(db, apiKeys, {
    orderBy: [desc(apiKeys.createdAt), desc(apiKeys.id)],
    page: options.page,
    perPage: options.perPage,
  });
  return { keys: rows.map(toRecord), page };
}

async function get({ db }: Keys, id: string): Promise<ApiKeyRecord> {
  if (!isId(id)) throw notFound("API key not found");
  const [row] = await db.select().from(apiKeys).where(eq(apiKeys.id, id));
  if (!row) throw notFound("API key not found");
  return toRecord(row);
}

/**
 * Makes a key: `atl_` + a 12-hex public id + `_` + 32 random bytes (base64url). The whole key is answered here
 * once; only its SHA-256 is stored.
 */
async function create({ db }: Keys, input: unknown, actor: Actor): Promise<{ key: ApiKeyRecord; secret: string }> {
  const parsed = parseWith(apiKeyInputSchema, input ?? {});
  if (!parsed.ok) throw badRequest(parsed.errors);
  const { name, areas, access } = parsed.data;
  const publicId = randomBytes(6).toString("hex");
  const secret = `${KEY_PREFIX}${publicId}_${randomBytes(32).toString("base64url")}`;
  const row = await audited(db, actor, "api_key", async (tx, audit) => {
    const [created] = await tx
      .insert(apiKeys)
      .values({
        publicId,
        secretHash: sha256(secret),
        name,
        areas,
        access,
        createdById: actor.id,
        createdByEmail: actor.email,
      })
      .returning();
    await audit.created(created!.id, audited_(created!));
    return created!;
  });
  return { key: toRecord(row), secret };
}

/** Revokes a key: from the next request on, on every instance, it is refused (401). Revoking twice changes nothing. */
async function revoke({ db, now }: Keys, id: string, actor: Actor): Promise<{ modified: boolean }> {
  if (!isId(id)) throw notFound("API key not found");
  return audited(db, actor, "api_key", async (tx, audit) => {
    const [row] = await tx.select().from(apiKeys).where(eq(apiKeys.id, id)).for("update");
    if (!row) throw notFound("API key not found");
    if (row.revokedAt) return { modified: false };
    await tx.update(apiKeys).set({ revokedAt: now(), revokedByEmail: actor.email }).where(eq(apiKeys.id, id));
    await audit.updated(id, { revoked: false }, { revoked: true });
    return { modified: true };
  });
}

/**
 * The key a request's `Authorization: Bearer <key>` names, read from the table on every request (one indexed
 * lookup by public id, the hash compared in constant time), then counted against the key's rate limit. Its "last
 * used" moves on at most once a minute.
 */
async function authenticate({ db, limiter, now, rule, keyByPublicId }: Keys, bearer: string): Promise<KeyCheck> {
  const publicId = publicIdOf(bearer);
  if (!publicId) return { refused: { status: 401, error: UNKNOWN_KEY } };
  const [row] = await keyByPublicId.execute({ publicId });
  if (!row || !sameHash(row.secretHash, sha256(bearer))) return { refused: { status: 401, error: UNKNOWN_KEY } };
  const limited = await limiter.hit(rule, row.id);
  if (!limited.allowed)
    return {
      refused: {
        status: 429,
        error: `This API key made more than ${rule.limit} requests in a minute. Try again in ${limited.retryAfterSeconds} seconds.`,
        retryAfterSeconds: limited.retryAfterSeconds,
      },
    };
  const at = now();
  if (!row.lastUsedAt || at.getTime() - row.lastUsedAt.getTime() >= LAST_USED_EVERY_MS) {
    const since = new Date(at.getTime() - LAST_USED_EVERY_MS);
    // Guarded by its own condition: two instances moving it on at once write it once.
    await db
      .update(apiKeys)
      .set({ lastUsedAt: at })
      .where(and(eq(apiKeys.id, row.id), or(isNull(apiKeys.lastUsedAt), lt(apiKeys.lastUsedAt, since))));
  }
  return {
    key: {
      id: row.id,
      publicId: row.publicId,
      name: row.name,
      areas: row.areas as StaffArea[],
      access: row.access,
    },
  };
}

/**
 * API keys (issue 37, decision 077): the one writer of api_keys. An Admin makes a key (its secret is answered once
 * and only its SHA-256 kept), lists them and revokes one; every REST request carrying `Authorization: Bearer` is
 * checked here against the table itself (no cache: a revoked key is refused at once on every instance), and counted
 * against the key's own rate limit.
 */
export function createApiKeysService(deps: ApiKeysDeps) {
  const keys = keysOf(deps);
  return {
    list: withDeps(keys, list),
    get: withDeps(keys, get),
    create: withDeps(keys, create),
    revoke: withDeps(keys, revoke),
    authenticate: withDeps(keys, authenticate),
  };
}

/** Two hex SHA-256 digests compared in constant time. */
function sameHash(stored: string, given: string): boolean {
  const a = Buffer.from(stored, "hex");
  const b = Buffer.from(given, "hex");
  return a.length === b.length && timingSafeEqual(a, b);
}

/** The activity log's actor for a change made with a key: readable there as the key's name and label. */
export const keyActor = (key: Pick<ApiKeyPrincipal, "id" | "name" | "publicId">): Actor => ({
  id: `api-key:${key.id}`,
  email: keyActorName(key.name, key.publicId),
});

export type ApiKeysService = ReturnType<typeof createApiKeysService>;
