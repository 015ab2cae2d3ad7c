import { create, type MessageInitShape } from "@bufbuild/protobuf";
import { NullValue } from "@bufbuild/protobuf/wkt";
import { QueryResultSchema, QueryRowSchema, type RowValueSchema } from "@gen/svc/v1/sql_service_pb.js";
import { describe, expect, it } from "vitest";
import { cellOf } from "./cell-text.ts";
import { PackedRows, shownResult } from "./packed-rows.ts";

const row = (...kinds: MessageInitShape<typeof RowValueSchema>["kind"][]) => create(QueryRowSchema, { values: kinds.map((kind) => ({ kind })) });

describe("PackedRows", () => {
  it("gives back each row as the server sent it, by index", () => {
    const rows = [
      row({ case: "int64Value", value: "9223372036854775807" }, { case: "stringValue", value: "é, ü and 漢字" }, { case: "nullValue", value: NullValue.NULL_VALUE }),
      row({ case: "doubleValue", value: 1.5 }, { case: "bytesValue", value: new Uint8Array([0, 171, 255]) }, { case: "boolValue", value: false }),
      row(),
      row({ case: "timestampValue", value: { value: { seconds: 1_767_225_600n, nanos: 500_000_000 }, offsetSeconds: 7200 } }, { case: "stringValue", value: "x".repeat(300) }),
    ];
    const packed = new PackedRows(rows);
    expect(packed.length).toBe(4);
    for (const i of [3, 0, 2, 1]) expect(packed.row(i)).toEqual(rows[i]);
    expect(cellOf(packed.row(0).values[2])).toEqual({ kind: "null" });
    expect(cellOf(packed.row(3).values[0])).toEqual({ kind: "value", text: "2026-01-01 02:00:00.5+02:00" });
  });

  it("holds an empty result", () => {
    expect(new PackedRows([]).length).toBe(0);
  });
});

describe("shownResult", () => {
  it("keeps the result's other fields and packs its rows", () => {
    const result = create(QueryResultSchema, { statement: "select 1", columnNames: ["?column?"], columnTypeNames: ["INT4"], rows: [row({ case: "int64Value", value: "1" })], truncated: true });
    const shown = shownResult(result);
    expect(shown).toMatchObject({ statement: "select 1", columnNames: ["?column?"], columnTypeNames: ["INT4"], truncated: true });
    expect(shown.rows.length).toBe(1);
    expect(cellOf(shown.rows.row(0).values[0])).toEqual({ kind: "value", text: "1" });
  });
});
