// Durations in the API (contract §3.3). Input takes the proto JSON form
// ("3600s", "1.5s") and the short forms 30s, 15m, 1h, 7d; output is always the
// proto JSON form, as protobuf's own JSON encoding writes it.
import { invalidArgument, quoted } from "./errors.ts";

const UNIT_MS = { s: 1000, m: 60_000, h: 3_600_000, d: 86_400_000 } as const;
const WHOLE = /^(\d+)([smhd])$/;
const DECIMAL_SECONDS = /^(\d+)\.(\d{1,9})s$/;
// The longest duration protobuf can carry: 10,000 years.
const MAX_MS = 315_576_000_000 * 1000;

/** Milliseconds in `text` (may have a fraction below one millisecond); `field` names the input in errors. */
export function parseDuration(text: string, field: string): number {
  const ms = readDuration(text);
  if (ms === undefined || ms > MAX_MS) {
    throw invalidArgument(`${field}: invalid duration ${quoted(text)}; use e.g. 30s, 15m, 1h, 7d`);
  }
  return ms;
}

function readDuration(text: string): number | undefined {
  const whole = WHOLE.exec(text);
  if (whole) return Number(whole[1]) * UNIT_MS[whole[2] as keyof typeof UNIT_MS];
  const decimal = DECIMAL_SECONDS.exec(text);
  if (!decimal) return undefined;
  const nanos = Number((decimal[2] ?? "").padEnd(9, "0"));
  return Number(decimal[1]) * 1000 + nanos / 1e6;
}

/**
 * The proto JSON form of `ms`: whole seconds, then 3, 6 or 9 fractional
 * digits only when needed ("3600s", "1.500s", "0.000001s").
 */
export function formatDuration(ms: number): string {
  if (!Number.isFinite(ms)) throw new RangeError(`formatDuration: ${ms} is not a finite duration`);
  const sign = ms < 0 ? "-" : "";
  let seconds = Math.trunc(Math.abs(ms) / 1000);
  let nanos = Math.round((Math.abs(ms) - seconds * 1000) * 1e6);
  if (nanos >= 1e9) {
    seconds += 1;
    nanos -= 1e9;
  }
  return seconds === 0 && nanos === 0 ? "0s" : `${sign}${seconds}${fraction(nanos)}s`;
}

function fraction(nanos: number): string {
  if (nanos === 0) return "";
  const digits = String(nanos).padStart(9, "0");
  if (digits.endsWith("000000")) return `.${digits.slice(0, 3)}`;
  if (digits.endsWith("000")) return `.${digits.slice(0, 6)}`;
  return `.${digits}`;
}
