import { eq, inArray, sql } from "drizzle-orm";
import { DEFAULT_SETTINGS, SETTINGS, settingsSchema, type SettingKey, type Settings } from "#domain/settings.ts";
import { parseWith } from "#domain/validation.ts";
import type { Db } from "../db/client";
import { preparedQuery } from "../db/prepared";
import { orders, settings as settingsTable } from "../db/schema";
import { AppError, badRequest } from "../lib/errors";
import { CURRENCY_LOCKED, moneySettingsProblems, type MoneySettings } from "#domain/money-settings.ts";
import { taxDay } from "#domain/vat-rates.ts";
import { audited, type Actor } from "./activity";

type Reader = Pick<Db, "select">;

const everySetting = (db: Reader) =>
  db
    .select()
    .from(settingsTable)
    .where(inArray(settingsTable.key, Object.keys(SETTINGS)));

/** Stored values over the defaults (a key never saved has its default; a stored value that no longer parses too). */
async function read(db: Reader): Promise<Settings> {
  return overDefaults(await everySetting(db));
}

function overDefaults(rows: { key: string; value: unknown }[]): Settings {
  const out: Record<string, unknown> = { ...DEFAULT_SETTINGS };
  for (const row of rows) {
    const parsed = SETTINGS[row.key as SettingKey].schema.safeParse(row.value);
    if (parsed.success) out[row.key] = parsed.data;
  }
  return out as Settings;
}

/**
 * A change of the money settings that cannot be made (decision 072): settings that could not tax today's sale (a rate
 * missing from the table), or a new currency once any order exists (each order keeps its currency, and the totals,
 * tallies and customers' spending are kept in one: the currency is chosen before the first sale).
 */
async function checkMoney(tx: Reader, before: MoneySettings, after: MoneySettings) {
  const problems = moneySettingsProblems(after, taxDay(new Date()));
  if (problems.length) throw badRequest(problems);
  if (after.currency !== before.currency) {
    const [any] = await tx.select({ id: orders.id }).from(orders).limit(1);
    if (any) throw new AppError(409, CURRENCY_LOCKED, [{ field: "currency", message: CURRENCY_LOCKED }]);
  }
}

/** The back office's settings (domain/settings.ts): read by anyone on the server, changed by an admin, audited. */
export function createSettingsService({ db }: { db: Db }) {
  // Read on every page (the site's currency) and every view of the orders desk: built once, prepared.
  const all = preparedQuery(everySetting(db));
  /**
   * The last settings read: while the database is away, a public page drawn from the content's last snapshot prints
   * prices in the currency it last knew, as it shows the content it last knew (whatever needs the database still fails).
   */
  let lastGood: Settings | undefined;
  return {
    async all(): Promise<Settings> {
      try {
        lastGood = overDefaults(await all.execute());
        return lastGood;
      } catch (error) {
        if (lastGood) return lastGood;
        throw error;
      }
    },

    /** One setting, read inside a transaction (the payment listener's, so that it sees a change made before). */
    async readTx<K extends SettingKey>(tx: Reader, key: K): Promise<Settings[K]> {
      const [row] = await tx.select().from(settingsTable).where(eq(settingsTable.key, key));
      const parsed = row ? SETTINGS[key].schema.safeParse(row.value) : undefined;
      return (parsed?.success ? parsed.data : DEFAULT_SETTINGS[key]) as Settings[K];
    },

    /** Saves the given settings (every key of a form; a JSON body may give some); each change is in the activity log. */
    async update(input: unknown, actor: Actor): Promise<{ modified: boolean; settings: Settings }> {
      const body = (input ?? {}) as Record<string, unknown>;
      const parsed = parseWith(settingsSchema, body);
      if (!parsed.ok) throw badRequest(parsed.errors);
      // A JSON body names the keys it sets; a page form's parsed value has every key (an unticked box is false).
      const keys = (Object.keys(SETTINGS) as SettingKey[]).filter((k) => k in body);
      return audited(db, actor, "setting", async (tx, audit) => {
        const before = await read(tx);
        if (keys.includes("money")) await checkMoney(tx, before.money, parsed.data.money!);
        let modified = false;
        for (const key of keys) {
          const value = parsed.data[key];
          if (JSON.stringify(before[key]) === JSON.stringify(value)) continue;
          await tx
            .insert(settingsTable)
            .values({ key, value, updatedAt: new Date() })
            .onConflictDoUpdate({ target: settingsTable.key, set: { value, updatedAt: new Date() } });
          await audit.updated(key, { [key]: before[key] }, { [key]: value });
          // The public pages print prices in the currency: every instance drops its rendered pages, as for content.
          if (key === "money") await tx.execute(sql`select pg_notify('content_changed', '')`);
          modified = true;
        }
        return { modified, settings: { ...before, ...Object.fromEntries(keys.map((k) => [k, parsed.data[k]])) } };
      });
    },
  };
}

export type SettingsService = ReturnType<typeof createSettingsService>;
