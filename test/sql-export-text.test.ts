// The SQL Editor's CSV and JSON export files (contract §14.4, §18.10), read
// back by independent readers (csv-parse, JSON.parse with the source text of
// each number): quotes, commas, line breaks, unicode, NULL against the empty
// string, bytes, numerics beyond a double, timestamps with zones, repeated
// column names; and the byte bound, which keeps whole rows and a whole file.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import { parse } from "csv-parse/sync";
import { AWKWARD_COLUMNS, AWKWARD_ROWS, exportBytes } from "./helpers/export-cells.ts";

type Json = Record<string, unknown>;

/** CSV fields as text; an unquoted empty field as null. */
function readCsv(bytes: Buffer): (string | null)[][] {
  return parse(bytes, { cast: (value, context) => (value === "" && !context.quoting ? null : value) });
}

/** JSON with each number kept as its source text, so that no digit is lost. */
function readJson(bytes: Buffer): Json[] {
  return JSON.parse(bytes.toString("utf8"), (_key, value, context?: { source?: string }) => (typeof value === "number" ? `#${context?.source}` : value));
}

describe("CSV export", () => {
  it("writes a header and RFC 4180 lines that csv-parse reads back exactly", async () => {
    const file = await exportBytes("CSV", AWKWARD_COLUMNS, AWKWARD_ROWS);
    assert.deepEqual([file.contentType, file.extension, file.rows, file.stoppedBy], ["text/csv; charset=utf-8", "csv", 3, ""]);
    assert.ok(file.bytes.toString("utf8").includes("\r\n"));
    assert.deepEqual(readCsv(file.bytes), [
      ["id", "text", "amount", "flag", "ratio", "blob", "at", "text"],
      ["9223372036854775807", 'quote " and, comma', "12345678901234567890.123456789", "true", "1.5", "AAH/", "2024-05-06 07:08:09.123456+05:30", "first"],
      ["-9223372036854775808", "line\nbreak\r\nünïcødé ☃ 😀", "-0.5", "false", "NaN", "", "2024-05-06 07:08:09.5", "it's C:\\path\\n"],
      ["3", "", null, null, "-Infinity", null, null, null],
    ]);
  });

  it("stops before the row that would pass the bound, on a whole line", async () => {
    const whole = await exportBytes("CSV", AWKWARD_COLUMNS, AWKWARD_ROWS);
    const maxBytes = whole.bytes.length - 1;
    const cut = await exportBytes("CSV", AWKWARD_COLUMNS, AWKWARD_ROWS, { maxBytes });
    assert.deepEqual([cut.rows, cut.stoppedBy], [2, "sql_result_size (test)"]);
    assert.ok(cut.bytes.length <= maxBytes);
    assert.deepEqual(readCsv(cut.bytes), readCsv(whole.bytes).slice(0, 3));
  });
});

describe("JSON export", () => {
  it("writes one array of row objects that JSON.parse reads back, repeated names kept apart", async () => {
    const file = await exportBytes("JSON", AWKWARD_COLUMNS, AWKWARD_ROWS);
    assert.deepEqual([file.contentType, file.extension, file.rows], ["application/json", "json", 3]);
    assert.deepEqual(readJson(file.bytes), [
      {
        id: "#9223372036854775807",
        text: 'quote " and, comma',
        amount: "12345678901234567890.123456789",
        flag: true,
        ratio: "#1.5",
        blob: "AAH/",
        at: "2024-05-06 07:08:09.123456+05:30",
        text_2: "first",
      },
      { id: "#-9223372036854775808", text: "line\nbreak\r\nünïcødé ☃ 😀", amount: "-0.5", flag: false, ratio: "NaN", blob: "", at: "2024-05-06 07:08:09.5", text_2: "it's C:\\path\\n" },
      { id: "#3", text: "", amount: null, flag: null, ratio: "-Infinity", blob: null, at: null, text_2: null },
    ]);
  });

  it("is a valid empty array without rows, and a closed array of whole rows when the bound stops it", async () => {
    assert.deepEqual(readJson((await exportBytes("JSON", AWKWARD_COLUMNS, [])).bytes), []);
    const whole = await exportBytes("JSON", AWKWARD_COLUMNS, AWKWARD_ROWS);
    const cut = await exportBytes("JSON", AWKWARD_COLUMNS, AWKWARD_ROWS, { maxBytes: whole.bytes.length - 1 });
    assert.deepEqual([cut.rows, cut.stoppedBy], [2, "sql_result_size (test)"]);
    assert.ok(cut.bytes.length < whole.bytes.length);
    assert.deepEqual(readJson(cut.bytes), readJson(whole.bytes).slice(0, 2));
  });
});
