// Binding conditions (contract §6.4): an expiry written as
// `request.time < timestamp("<RFC 3339>")`. An expired binding grants nothing.
import { invalidArgument, parseRfc3339, quoted } from "../../platform/index.ts";

const EXPIRY = /^\s*request\.time\s*<\s*timestamp\(\s*"([^"]+)"\s*\)\s*$/;

/** The expiry a condition states; throws invalid_argument for any other expression. */
export function conditionExpiry(expression: string, field: string): Date {
  const time = parseExpiry(expression);
  if (!time) {
    throw invalidArgument(`${field}: unsupported condition ${quoted(expression)}; write request.time < timestamp("2027-01-01T00:00:00Z")`);
  }
  return time;
}

export function expiryCondition(expiresAt: Date): string {
  return `request.time < timestamp("${expiresAt.toISOString()}")`;
}

/** True while the binding grants: no condition, or an expiry still ahead. Unreadable conditions grant nothing. */
export function isBindingActive(condition: { expression: string } | undefined, now: Date): boolean {
  if (!condition || condition.expression.trim() === "") return true;
  const time = parseExpiry(condition.expression);
  return time !== undefined && now < time;
}

/** The time of a `request.time < timestamp("…")` expression; undefined for anything else. */
function parseExpiry(expression: string): Date | undefined {
  const match = EXPIRY.exec(expression);
  return match ? parseRfc3339(match[1]!) : undefined;
}
