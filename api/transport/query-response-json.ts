// svc.v1.QueryResponse as protobuf JSON text, written directly (json-text.ts
// says why): the result's other fields through protobuf-es, its rows cell by
// cell into one string, the same JSON protobuf-es writes (the differential
// test compares them) save that "rows" comes last among a result's keys.
import { toJsonString } from "@bufbuild/protobuf";
import type { Timestamp } from "@bufbuild/protobuf/wkt";
import { base64Encode } from "@bufbuild/protobuf/wire";
import { type QueryResponse, type QueryResult, QueryResultSchema, type QueryRow, type RowValue } from "../../shared/gen/svc/v1/sql_service_pb.js";

export function queryResponseJson(response: QueryResponse): string {
  if (response.results.length === 0) return "{}";
  return `{"results":[${response.results.map(resultJson).join(",")}]}`;
}

function resultJson(result: QueryResult): string {
  const others = toJsonString(QueryResultSchema, { ...result, rows: [] });
  if (result.rows.length === 0) return others;
  const rows = `"rows":${rowsJson(result.rows)}}`;
  return others === "{}" ? `{${rows}` : `${others.slice(0, -1)},${rows}`;
}

function rowsJson(rows: readonly QueryRow[]): string {
  let text = "[";
  for (let r = 0; r < rows.length; r++) {
    if (r > 0) text += ",";
    const values = rows[r]!.values;
    if (values.length === 0) {
      text += "{}";
      continue;
    }
    text += '{"values":[';
    for (let i = 0; i < values.length; i++) {
      if (i > 0) text += ",";
      text += valueJson(values[i]!);
    }
    text += "]}";
  }
  return `${text}]`;
}

function valueJson(value: RowValue): string {
  const kind = value.kind;
  switch (kind.case) {
    case "nullValue":
      return '{"nullValue":null}';
    case "boolValue":
      return kind.value ? '{"boolValue":true}' : '{"boolValue":false}';
    case "int64Value":
      return `{"int64Value":${JSON.stringify(kind.value.toString())}}`;
    case "doubleValue":
      return `{"doubleValue":${doubleJson(kind.value)}}`;
    case "stringValue":
      return `{"stringValue":${JSON.stringify(kind.value)}}`;
    case "bytesValue":
      return `{"bytesValue":"${base64Encode(kind.value)}"}`;
    case "timestampValue": {
      const { value: instant, offsetSeconds } = kind.value;
      const at = instant ? `"value":"${timestampText(instant)}"` : "";
      const offset = offsetSeconds === undefined ? "" : `"offsetSeconds":${offsetSeconds}`;
      return `{"timestampValue":{${at}${at && offset ? "," : ""}${offset}}}`;
    }
    default:
      return "{}";
  }
}

/** Proto3 JSON's double: a number, or a string for the values JSON has none for. */
function doubleJson(value: number): string {
  if (Number.isNaN(value)) return '"NaN"';
  if (value === Infinity) return '"Infinity"';
  if (value === -Infinity) return '"-Infinity"';
  return JSON.stringify(value);
}

const MIN_SECONDS = -62_135_596_800; // 0001-01-01T00:00:00Z
const MAX_SECONDS = 253_402_300_799; // 9999-12-31T23:59:59Z
const SECONDS_PER_DAY = 86_400;

/**
 * RFC 3339 in UTC with 0, 3, 6 or 9 fractional digits, as proto3 JSON writes a
 * Timestamp, with protobuf-es's range; by arithmetic, as a Date and its ISO
 * string per cell cost three times as much.
 */
function timestampText(timestamp: Timestamp): string {
  const seconds = Number(timestamp.seconds);
  if (seconds < MIN_SECONDS || seconds > MAX_SECONDS) throw new Error("cannot encode message google.protobuf.Timestamp to JSON: must be from 0001-01-01T00:00:00Z to 9999-12-31T23:59:59Z inclusive");
  if (timestamp.nanos < 0 || timestamp.nanos > 999_999_999) throw new Error("cannot encode message google.protobuf.Timestamp to JSON: nanos out of range");
  const days = Math.floor(seconds / SECONDS_PER_DAY);
  const ofDay = seconds - days * SECONDS_PER_DAY;
  const time = `${two(Math.floor(ofDay / 3600))}:${two(Math.floor(ofDay / 60) % 60)}:${two(ofDay % 60)}`;
  return `${civilDate(days)}T${time}${fractionText(timestamp.nanos)}Z`;
}

/** YYYY-MM-DD of a day counted from 1970-01-01 (the proleptic Gregorian calendar; years 1 to 9999). */
function civilDate(days: number): string {
  const shifted = days + 719_468; // counted from 0000-03-01: leap days fall at the end of a year
  const era = Math.floor(shifted / 146_097);
  const dayOfEra = shifted - era * 146_097;
  const yearOfEra = Math.floor((dayOfEra - Math.floor(dayOfEra / 1460) + Math.floor(dayOfEra / 36_524) - Math.floor(dayOfEra / 146_096)) / 365);
  const dayOfYear = dayOfEra - (365 * yearOfEra + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100));
  const monthFromMarch = Math.floor((5 * dayOfYear + 2) / 153);
  const day = dayOfYear - Math.floor((153 * monthFromMarch + 2) / 5) + 1;
  const month = monthFromMarch < 10 ? monthFromMarch + 3 : monthFromMarch - 9;
  const year = yearOfEra + era * 400 + (month <= 2 ? 1 : 0);
  return `${String(year).padStart(4, "0")}-${two(month)}-${two(day)}`;
}

function fractionText(nanos: number): string {
  if (nanos === 0) return "";
  const digits = String(nanos + 1_000_000_000).slice(1);
  return `.${digits.endsWith("000000") ? digits.slice(0, 3) : digits.endsWith("000") ? digits.slice(0, 6) : digits}`;
}

function two(n: number): string {
  return n < 10 ? `0${n}` : String(n);
}
