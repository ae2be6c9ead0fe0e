import { randomBytes } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import path from "node:path";
import { eq } from "drizzle-orm";
import type { Config, EnvConfig } from "../config";
import type { Db } from "./client";
import { appSecrets } from "./schema";

/** What this module tells the operator (the app's logger, or any that takes a message). */
type Notices = { info(message: string): void; warn(message: string): void };

/** The auth secret's name in app_secrets. */
const AUTH = "auth";

/**
 * The secret `name` that every host on this database shares: the one kept in app_secrets, else `candidate()`, stored
 * there first. Hosts starting at once keep one: the second insert waits for the first, then changes nothing, and the
 * read after it (a statement of its own, so a snapshot of its own) sees the first one's secret.
 */
export async function sharedSecret(
  db: Db,
  name: string,
  candidate: () => string,
): Promise<{ value: string; created: boolean }> {
  const inserted = await db
    .insert(appSecrets)
    .values({ name, value: candidate() })
    .onConflictDoNothing()
    .returning({ value: appSecrets.value });
  if (inserted[0]) return { value: inserted[0].value, created: true };
  const [row] = await db.select({ value: appSecrets.value }).from(appSecrets).where(eq(appSecrets.name, name));
  if (!row) throw new Error(`The secret "${name}" is neither in app_secrets nor could it be stored there.`);
  return { value: row.value, created: false };
}

/**
 * The configuration with its auth secret: AUTH_SECRET when set, else the one kept in the database, so that every host
 * on it signs and checks sessions and mailed links alike (decision 035). The first start makes it; a secret an earlier
 * version generated in DATA_DIR/secrets/auth-secret becomes the database's, so sessions and sent links stay valid.
 */
export async function withSharedSecrets(config: EnvConfig, db: Db, logger: Notices): Promise<Config> {
  if (config.authSecret) return { ...config, authSecret: config.authSecret };
  const file = path.join(config.dataDir, "secrets", "auth-secret");
  const earlier = existsSync(file) ? readFileSync(file, "utf8").trim() : "";
  const usable = earlier.length >= 32 ? earlier : undefined;
  const secret = await sharedSecret(db, AUTH, () => usable ?? randomBytes(32).toString("base64url"));
  if (secret.created) {
    logger.info(
      usable
        ? `the auth secret of ${file} is now kept in the database, shared by every host on it; the file is no longer read`
        : "generated the auth secret and kept it in the database, shared by every host on it (set AUTH_SECRET to choose one)",
    );
  } else if (usable && usable !== secret.value) {
    logger.warn(
      `${file} holds another auth secret than the database's; the database's is used (by every host on it). ` +
        `Delete the file to silence this.`,
    );
  }
  return { ...config, authSecret: secret.value };
}
