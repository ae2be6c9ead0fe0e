import { describe, expect, it } from "vitest";
import { toCsv } from "./csv.server";

const cols = [
  { header: "Name", value: (r: { name: unknown }) => r.name },
  { header: "Note", value: (r: { note?: unknown }) => r.note },
];

describe("toCsv", () => {
  it("writes a BOM, a header row and CRLF rows", () => {
    expect(toCsv([{ name: "Ana", note: "ok" }], cols)).toBe("\uFEFFName,Note\r\nAna,ok\r\n");
  });
  it("quotes commas, quotes and line breaks, doubling quotes", () => {
    expect(toCsv([{ name: 'Ana "A", B', note: "line1\nline2" }], cols)).toBe(
      '\uFEFFName,Note\r\n"Ana ""A"", B","line1\nline2"\r\n',
    );
  });
  it("keeps UTF-8 text and empty values", () => {
    expect(toCsv([{ name: "Zoë Ødegård", note: null }], cols)).toBe("\uFEFFName,Note\r\nZoë Ødegård,\r\n");
  });
  it("neutralises formulas but not negative numbers", () => {
    expect(toCsv([{ name: '=HYPERLINK("x")', note: -12.5 }], cols)).toBe(
      '\uFEFFName,Note\r\n"\'=HYPERLINK(""x"")",-12.5\r\n',
    );
    expect(toCsv([{ name: "@SUM(A1)", note: "+1" }], cols)).toBe("\uFEFFName,Note\r\n'@SUM(A1),'+1\r\n");
  });
});
