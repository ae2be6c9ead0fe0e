/**
 * RFC 4180 CSV: every field quoted when it needs to be (comma, quote, line break), quotes doubled, CRLF rows, a UTF-8
 * byte-order mark so spreadsheet programs read accents right. A cell that a spreadsheet would run as a formula
 * (starting with = + - @ or a tab) is prefixed with a quote mark, so exported data cannot execute.
 */
export function toCsv<T>(
  rows: readonly T[],
  columns: readonly { header: string; value: (row: T) => unknown }[],
): string {
  const line = (cells: unknown[]) => cells.map(cell).join(",");
  return (
    "\uFEFF" +
    [line(columns.map((c) => c.header)), ...rows.map((r) => line(columns.map((c) => c.value(r))))].join("\r\n") +
    "\r\n"
  );
}

function cell(value: unknown): string {
  let text = value === null || value === undefined ? "" : value instanceof Date ? value.toISOString() : String(value);
  if (/^[=+\-@\t\r]/.test(text) && !/^-?\d+(\.\d+)?$/.test(text)) text = `'${text}`;
  return /[",\r\n]/.test(text) ? `"${text.replace(/"/g, '""')}"` : text;
}
