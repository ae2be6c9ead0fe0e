/** Two stored values are the same: dates by their instant, arrays and JSON by value, the rest by `===`. */
function sameValue(a: unknown, b: unknown): boolean {
  if (a instanceof Date || b instanceof Date)
    return a instanceof Date && b instanceof Date ? a.getTime() === b.getTime() : false;
  if (typeof a === "object" && a !== null && typeof b === "object" && b !== null)
    return JSON.stringify(a) === JSON.stringify(b);
  return a === b;
}

/**
 * The columns an update would change: those of `next` whose value differs from the row as stored (a key left
 * undefined is not set, as drizzle's `set` leaves it). A service writes its row when this is not empty, whatever its
 * activity entry shows (decision 085): a column outside the audited fields is written all the same.
 */
export function changedColumns<R extends object>(row: R, next: Partial<R>): (keyof R)[] {
  return (Object.keys(next) as (keyof R)[]).filter((k) => next[k] !== undefined && !sameValue(row[k], next[k]));
}
