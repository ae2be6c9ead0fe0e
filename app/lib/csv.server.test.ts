import { Readable } from "node:stream";
import { buffer } from "node:stream/consumers";
import { describe, expect, it } from "vitest";
import { csvResponse, csvStream, releasingChunks } from "./csv.server";

/** The bytes as text, byte-order mark kept (a TextDecoder would drop it). */
const text = async (stream: Readable) => (await buffer(stream)).toString("utf8");
const csv = (rows: unknown[][], header = ["Name", "Note"]) => text(csvStream({ header, rows: Readable.from(rows) }));

describe("csvStream (csv-stringify)", () => {
  it("writes a BOM, a header row and CRLF rows", async () => {
    expect(await csv([["Ana", "ok"]])).toBe("\uFEFFName,Note\r\nAna,ok\r\n");
    expect(await csv([])).toBe("\uFEFFName,Note\r\n");
  });

  it("quotes commas, quotes and line breaks (a bare \\n or \\r too), doubling quotes", async () => {
    expect(await csv([['Ana "A", B', "line1\nline2"]])).toBe('\uFEFFName,Note\r\n"Ana ""A"", B","line1\nline2"\r\n');
    expect(await csv([["a\rb", "c\r\nd"]])).toBe('\uFEFFName,Note\r\n"a\rb","c\r\nd"\r\n');
    expect(await csv([["Name, With Comma", "x"]], ["Header, quoted", "B"])).toBe(
      '\uFEFF"Header, quoted",B\r\n"Name, With Comma",x\r\n',
    );
  });

  it("keeps UTF-8 text and writes empty cells for null", async () => {
    expect(await csv([["Zoë Ødegård", null]])).toBe("\uFEFFName,Note\r\nZoë Ødegård,\r\n");
  });

  it("neutralises formulas (= + - @, tab, and their full-width forms) but not numbers", async () => {
    expect(await csv([['=HYPERLINK("x")', -12.5]])).toBe('\uFEFFName,Note\r\n"\'=HYPERLINK(""x"")",-12.5\r\n');
    expect(await csv([["@SUM(A1)", "+1"]])).toBe("\uFEFFName,Note\r\n'@SUM(A1),'+1\r\n");
    expect(await csv([["-2+3", "\tcmd"]])).toBe("\uFEFFName,Note\r\n'-2+3,'\tcmd\r\n");
    expect(await csv([["\uFF1D1+1", 42]])).toBe("\uFEFFName,Note\r\n'\uFF1D1+1,42\r\n");
  });

  it("hands on chunks of 64 KB, reading rows only as they are taken, and ends the rows when the reader stops", async () => {
    let made = 0;
    let ended = false;
    // Endless rows, made only when asked for (a cursor).
    const rows = new Readable({
      objectMode: true,
      read() {
        this.push([`row ${++made}`, "x".repeat(100)]);
      },
    });
    rows.once("close", () => (ended = true));
    for await (const chunk of csvStream({ header: ["A", "B"], rows })) {
      expect((chunk as Buffer).length).toBeGreaterThanOrEqual(64 * 1024);
      break; // the reader stops: the rows (a database cursor) are closed
    }
    await new Promise((r) => setImmediate(r));
    expect(ended).toBe(true);
    // What was read ahead is a few chunks' worth, not everything there is.
    expect(made).toBeLessThan(5_000);
  });

  it("fails the download when a row fails", async () => {
    const failing = new Readable({ objectMode: true, read() {} });
    failing.push(["ok", "row"]);
    setImmediate(() => failing.destroy(new Error("connection lost")));
    await expect(text(csvStream({ header: ["A", "B"], rows: failing }))).rejects.toThrow("connection lost");
  });
});

describe("csvResponse", () => {
  it("is an attachment, never cached, whose body is the stream", async () => {
    const res = csvResponse({ header: ["A"], rows: Readable.from([["1"]]) }, "orders-2026-12-22.csv");
    expect(res.headers.get("content-type")).toBe("text/csv; charset=utf-8");
    expect(res.headers.get("content-disposition")).toBe('attachment; filename="orders-2026-12-22.csv"');
    expect(res.headers.get("cache-control")).toBe("no-store");
    expect(Buffer.from(await res.arrayBuffer()).toString("utf8")).toBe("\uFEFFA\r\n1\r\n");
  });
});

const webStream = (chunks: Buffer[]) => Readable.toWeb(Readable.from(chunks)) as ReadableStream<Uint8Array>;

describe("releasingChunks (remix-run/react-router#15247)", () => {
  it("gives each chunk once, and forgets the last one when the next is asked for", async () => {
    const body = releasingChunks(webStream([Buffer.from("a"), Buffer.from("b")]));
    const reader = body.getReader();
    const first = await reader.read();
    expect(String(first.value)).toBe("a");
    const second = await reader.read();
    expect(String(second.value)).toBe("b");
    expect(first.value).toBeUndefined(); // a reader that holds on to `first` no longer holds its chunk
    expect((await reader.read()).done).toBe(true);
    expect(second.value).toBeUndefined();
  });

  it("is read whole by a Response as any body is", async () => {
    const res = new Response(releasingChunks(webStream([Buffer.from("x,"), Buffer.from("y")])));
    expect(await res.text()).toBe("x,y");
  });
});
