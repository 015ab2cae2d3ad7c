// How a result's values read in the grid (contract §14.2): NULL apart from
// any text, integers and numerics as the target printed them, bytes in hex,
// instants in the zone the target gave them.
import type { Duration } from "@bufbuild/protobuf/wkt";
import type { RowValue, RowValue_Timestamp } from "@gen/svc/v1/sql_service_pb.js";

export type Cell = { kind: "null" } | { kind: "value"; text: string };

const BYTES_SHOWN = 64;

export function cellOf(value: RowValue | undefined): Cell {
  const kind = value?.kind;
  switch (kind?.case) {
    case undefined:
    case "nullValue":
      return { kind: "null" };
    case "boolValue":
      return { kind: "value", text: String(kind.value) };
    case "int64Value":
    case "stringValue":
      return { kind: "value", text: kind.value };
    case "doubleValue":
      return { kind: "value", text: String(kind.value) };
    case "bytesValue":
      return { kind: "value", text: hexOf(kind.value) };
    case "timestampValue":
      return { kind: "value", text: instantText(kind.value) };
  }
}

/** PostgreSQL's bytea form (\x…), cut after BYTES_SHOWN bytes. */
function hexOf(bytes: Uint8Array): string {
  let hex = "\\x";
  for (const byte of bytes.subarray(0, BYTES_SHOWN)) hex += byte.toString(16).padStart(2, "0");
  return bytes.length > BYTES_SHOWN ? `${hex}… (${bytes.length} bytes)` : hex;
}

/** "2024-05-06 07:08:09.5+02:00" at the target's offset, or the wall clock alone for a type without a zone. */
export function instantText({ value, offsetSeconds }: RowValue_Timestamp): string {
  if (!value) return "";
  const offset = offsetSeconds ?? 0;
  const wall = new Date((Number(value.seconds) + offset) * 1000).toISOString().slice(0, 19).replace("T", " ");
  const fraction = value.nanos ? `.${String(value.nanos).padStart(9, "0").replace(/0+$/, "")}` : "";
  return offsetSeconds === undefined ? `${wall}${fraction}` : `${wall}${fraction}${offsetText(offset)}`;
}

function offsetText(seconds: number): string {
  const sign = seconds < 0 ? "-" : "+";
  const minutes = Math.abs(seconds) / 60;
  return `${sign}${String(Math.floor(minutes / 60)).padStart(2, "0")}:${String(minutes % 60).padStart(2, "0")}`;
}

/** A duration in milliseconds, for "12 ms". */
export function durationMs(duration: Duration | undefined): number {
  return duration ? Number(duration.seconds) * 1000 + duration.nanos / 1e6 : 0;
}
