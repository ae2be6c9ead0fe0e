import { sql } from "drizzle-orm";
import { dayKey } from "#domain/dates.ts";
import { numberSequences } from "../db/schema";
import type { Tx } from "./jobs";

/**
 * The one writer of number_sequences: the next number of the year (in the site's zone) from one of the counters
 * (orders, invoices, credit notes), taken in the transaction `tx` of what it numbers. A rollback gives it back, so a
 * year's numbers have no gap; two transactions wait for each other on the counter's row, so none repeats.
 */
export async function nextNumberTx(
  tx: Tx,
  at: Date,
  timeZone: string,
  scope: (year: number) => string,
  format: (year: number, sequence: number) => string,
): Promise<string> {
  const year = Number(dayKey(at, timeZone).slice(0, 4));
  const [row] = await tx
    .insert(numberSequences)
    .values({ scope: scope(year), last: 1 })
    .onConflictDoUpdate({ target: numberSequences.scope, set: { last: sql`${numberSequences.last} + 1` } })
    .returning({ last: numberSequences.last });
  return format(year, row!.last);
}
