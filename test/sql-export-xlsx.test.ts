// The SQL Editor's XLSX export (contract §18.10), opened by an independent
// reader (SheetJS): one sheet with a header row; booleans and numbers as
// cells of their type, integers beyond a spreadsheet's 15 digits as text;
// NULL an empty cell, the empty string an empty text; characters XML cannot
// hold, and text that looks like OOXML's own escapes, round-trip; the byte
// bound keeps whole rows and a whole workbook.
import assert from "node:assert/strict";
import { describe, it } from "node:test";
import XLSX from "xlsx";
import type { Column, Row } from "../shared/sql-editor/cells.ts";
import { AWKWARD_COLUMNS, AWKWARD_ROWS, exportBytes } from "./helpers/export-cells.ts";

function readSheet(bytes: Buffer): { names: string[]; rows: unknown[][]; types: string[][] } {
  const book = XLSX.read(bytes, { type: "buffer" });
  const sheet = book.Sheets[book.SheetNames[0]!]!;
  const rows = XLSX.utils.sheet_to_json<unknown[]>(sheet, { header: 1, raw: true, defval: null });
  const range = XLSX.utils.decode_range(sheet["!ref"]!);
  const types: string[][] = [];
  for (let r = range.s.r; r <= range.e.r; r++) {
    types.push([]);
    for (let c = range.s.c; c <= range.e.c; c++) types[r]!.push(sheet[XLSX.utils.encode_cell({ r, c })]?.t ?? "-");
  }
  return { names: book.SheetNames, rows, types };
}

describe("XLSX export", () => {
  it("writes a workbook that SheetJS opens, each value in its cell and type", async () => {
    const file = await exportBytes("XLSX", AWKWARD_COLUMNS, AWKWARD_ROWS);
    assert.deepEqual([file.contentType, file.extension, file.rows], ["application/vnd.openxmlformats-officedocument.spreadsheetml.sheet", "xlsx", 3]);
    const { names, rows, types } = readSheet(file.bytes);
    assert.deepEqual(names, ["export"]);
    assert.deepEqual(rows, [
      ["id", "text", "amount", "flag", "ratio", "blob", "at", "text"],
      ["9223372036854775807", 'quote " and, comma', "12345678901234567890.123456789", true, 1.5, "AAH/", "2024-05-06 07:08:09.123456+05:30", "first"],
      ["-9223372036854775808", "line\nbreak\r\nünïcødé ☃ 😀", "-0.5", false, "NaN", "", "2024-05-06 07:08:09.5", "it's C:\\path\\n"],
      [3, "", null, null, "-Infinity", null, null, null],
    ]);
    assert.deepEqual(types.slice(1), [
      ["s", "s", "s", "b", "n", "s", "s", "s"],
      ["s", "s", "s", "b", "s", "s", "s", "s"],
      ["n", "s", "-", "-", "s", "-", "-", "-"],
    ]);
  });

  it("keeps characters XML cannot hold and text that looks like an OOXML escape", async () => {
    const columns: Column[] = [{ name: "a<b>&c", typeName: "TEXT", kind: "text" }];
    const rows: Row[] = [["bell\u0007 tab\t vt\u000b _x0041_ <tag>&amp;"], ["x".repeat(40_000)]];
    const read = readSheet((await exportBytes("XLSX", columns, rows)).bytes).rows;
    assert.deepEqual(read.slice(0, 2), [["a<b>&c"], ["bell\u0007 tab\t vt\u000b _x0041_ <tag>&amp;"]]);
    assert.equal((read[2]![0] as string).length, 32_767, "a cell holds at most 32,767 characters");
  });

  it("ends a whole workbook of whole rows when the bound stops it", async () => {
    const rows: Row[] = Array.from({ length: 2000 }, (_, i) => [String(i), `row ${i} ${"x".repeat(i % 50)}`, null, i % 2 === 0, i / 7, null, null, "y"]);
    const cut = await exportBytes("XLSX", AWKWARD_COLUMNS, rows, { maxBytes: 64 * 1024 });
    assert.equal(cut.stoppedBy, "sql_result_size (test)");
    assert.ok(cut.rows > 100 && cut.rows < 2000, String(cut.rows));
    assert.ok(cut.bytes.length <= 64 * 1024);
    const read = readSheet(cut.bytes).rows;
    assert.equal(read.length, cut.rows + 1);
    assert.deepEqual(read.at(-1), [cut.rows - 1, `row ${cut.rows - 1} ${"x".repeat((cut.rows - 1) % 50)}`, null, (cut.rows - 1) % 2 === 0, (cut.rows - 1) / 7, null, null, "y"]);
  });
});
