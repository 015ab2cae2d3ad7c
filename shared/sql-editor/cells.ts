// One value of a query result as it travels from the target's driver to the
// encoders (the Query reply, the export files), contract §14.2. Values are
// plain JS values in a row array, not an object per cell: the drivers' type
// parsers hand over the target's text untouched wherever an encoder would
// print it again, so a row costs an array and its strings.

/**
 * How the values of a column are carried (null in any of them):
 * - "bool": boolean;
 * - "int64": the integer as the target prints it (a string, never parsed);
 *   one beyond int64 (MySQL BIGINT UNSIGNED) is shown as text;
 * - "double": number (NaN and ±Infinity included);
 * - "text": string — text, numerics (exact, as printed), json, arrays,
 *   dates, times, intervals and every other type;
 * - "bytes": Uint8Array;
 * - "timestamp": a Timestamp.
 */
export type CellKind = "bool" | "int64" | "double" | "text" | "bytes" | "timestamp";

export type Cell = null | boolean | number | string | Uint8Array | Timestamp;

/** One row: a cell per column, in the columns' order. */
export type Row = Cell[];

export interface Column {
  name: string;
  /** The target's type name, upper case (INT4, VARCHAR, TIMESTAMPTZ, DATETIME …). */
  typeName: string;
  kind: CellKind;
}

/**
 * A point in time as the target printed it ("2024-05-06 07:08:09.123456",
 * with "+02", "+05:30" or "Z" after it for a type with a zone); parsed only
 * when an encoder asks for the instant, so an export prints it as is.
 */
export class Timestamp {
  readonly text: string;
  /** The type carries a zone (PostgreSQL timestamptz, MySQL TIMESTAMP read in UTC). */
  readonly zoned: boolean;

  constructor(text: string, zoned: boolean) {
    this.text = text;
    this.zoned = zoned;
  }
}

/** A Timestamp as a protobuf Timestamp needs it, with its UTC offset when zoned. */
export interface Instant {
  seconds: bigint;
  /** Microsecond precision, as nanoseconds. */
  nanos: number;
  /** Present for a zoned value: the offset it was printed in. */
  offsetSeconds?: number;
}

// YYYY-MM-DD hh:mm:ss[.ffffff][Z | ±hh[:mm[:ss]]]; "infinity", BC dates and MySQL's zero dates do not match.
const TIMESTAMP = /^(\d{4,})-(\d\d)-(\d\d)[ T](\d\d):(\d\d):(\d\d)(?:\.(\d{1,9}))?(?:(Z)|([+-])(\d\d)(?::?(\d\d))?(?::?(\d\d))?)?$/;
const SECONDS_PER_DAY = 86_400;
/** Nanoseconds per unit of a fraction of n digits (index n). */
const NANOS_PER_FRACTION_UNIT = [0, 100_000_000, 10_000_000, 1_000_000, 100_000, 10_000, 1_000, 100, 10, 1];

/** The instant of a Timestamp; undefined when the text names none a protobuf Timestamp can hold (then it is shown as text). */
export function instantOf(timestamp: Timestamp): Instant | undefined {
  // Runs for every timestamp cell of a Query result: no array or padded string per call.
  const m = TIMESTAMP.exec(timestamp.text);
  if (!m) return undefined;
  const year = Number(m[1]);
  const month = Number(m[2]);
  const day = Number(m[3]);
  if (month < 1 || month > 12 || day < 1 || day > 31 || year > 9999) return undefined;
  const offsetSeconds = m[8] ? 0 : m[9] ? offsetOf(m[9], m[10], m[11], m[12]) : undefined;
  const local = daysFromCivil(year, month, day) * SECONDS_PER_DAY + Number(m[4]) * 3600 + Number(m[5]) * 60 + Number(m[6]);
  const fraction = m[7];
  const nanos = fraction ? Number(fraction) * NANOS_PER_FRACTION_UNIT[fraction.length]! : 0;
  const instant: Instant = { seconds: BigInt(local - (offsetSeconds ?? 0)), nanos };
  if (timestamp.zoned) instant.offsetSeconds = offsetSeconds ?? 0;
  return instant;
}

function offsetOf(sign: string, hours: string | undefined, minutes: string | undefined, seconds: string | undefined): number {
  const value = Number(hours) * 3600 + Number(minutes ?? 0) * 60 + Number(seconds ?? 0);
  return sign === "-" ? -value : value;
}

/** Days since 1970-01-01 of a proleptic Gregorian date (H. Hinnant's days_from_civil). */
function daysFromCivil(year: number, month: number, day: number): number {
  const y = month <= 2 ? year - 1 : year;
  const era = Math.floor(y / 400);
  const yearOfEra = y - era * 400;
  const dayOfYear = Math.floor((153 * (month + (month > 2 ? -3 : 9)) + 2) / 5) + day - 1;
  const dayOfEra = yearOfEra * 365 + Math.floor(yearOfEra / 4) - Math.floor(yearOfEra / 100) + dayOfYear;
  return era * 146_097 + dayOfEra - 719_468;
}

/** The largest int64; an "int64" cell beyond it (MySQL BIGINT UNSIGNED) is shown as text. */
const INT64_MAX = 9_223_372_036_854_775_807n;

/** Whether an "int64" cell's text fits an int64 (every one shorter than 19 characters does). */
export function fitsInt64(text: string): boolean {
  return text.length < 19 || BigInt(text) <= INT64_MAX;
}
