import { create } from "@bufbuild/protobuf";
import { NullValue } from "@bufbuild/protobuf/wkt";
import { RowValueSchema, type RowValue } from "@gen/svc/v1/sql_service_pb.js";
import { describe, expect, it } from "vitest";
import { cellOf, durationMs } from "./cell-text.ts";

const value = (kind: RowValue["kind"]) => create(RowValueSchema, { kind });

describe("cellOf", () => {
  it("tells NULL apart from the text NULL and from an empty string", () => {
    expect(cellOf(value({ case: "nullValue", value: NullValue.NULL_VALUE }))).toEqual({ kind: "null" });
    expect(cellOf(value({ case: "stringValue", value: "NULL" }))).toEqual({ kind: "value", text: "NULL" });
    expect(cellOf(value({ case: "stringValue", value: "" }))).toEqual({ kind: "value", text: "" });
  });

  it("prints integers beyond 2^53 as the target did, and booleans and doubles plainly", () => {
    expect(cellOf(value({ case: "int64Value", value: "9223372036854775807" }))).toEqual({ kind: "value", text: "9223372036854775807" });
    expect(cellOf(value({ case: "boolValue", value: false }))).toEqual({ kind: "value", text: "false" });
    expect(cellOf(value({ case: "doubleValue", value: 1.5 }))).toEqual({ kind: "value", text: "1.5" });
  });

  it("prints bytes in hex, cut after 64 bytes", () => {
    expect(cellOf(value({ case: "bytesValue", value: new Uint8Array([0, 171, 255]) }))).toEqual({ kind: "value", text: "\\x00abff" });
    const long = cellOf(value({ case: "bytesValue", value: new Uint8Array(100) }));
    expect(long.kind === "value" && long.text.endsWith("… (100 bytes)")).toBe(true);
  });

  it("prints an instant at the target's offset, and a zoneless one as its wall clock", () => {
    const at = { seconds: BigInt(Date.UTC(2024, 4, 6, 7, 8, 9) / 1000), nanos: 500_000_000 };
    expect(cellOf(value({ case: "timestampValue", value: { $typeName: "svc.v1.RowValue.Timestamp", value: { $typeName: "google.protobuf.Timestamp", ...at }, offsetSeconds: 7200 } }))).toEqual({
      kind: "value",
      text: "2024-05-06 09:08:09.5+02:00",
    });
    expect(cellOf(value({ case: "timestampValue", value: { $typeName: "svc.v1.RowValue.Timestamp", value: { $typeName: "google.protobuf.Timestamp", ...at } } }))).toEqual({
      kind: "value",
      text: "2024-05-06 07:08:09.5",
    });
  });
});

describe("durationMs", () => {
  it("adds seconds and nanoseconds", () => {
    expect(durationMs({ $typeName: "google.protobuf.Duration", seconds: 2n, nanos: 5_000_000 })).toBe(2005);
    expect(durationMs(undefined)).toBe(0);
  });
});
