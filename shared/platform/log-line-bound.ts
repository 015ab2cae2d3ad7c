// Keeps log lines short whatever a client sent: a line longer than
// LINE_LIMIT has each of its long strings (message, fields, error text) cut
// to FIELD_LIMIT characters with a marker of the original length. Lines of
// normal size are written untouched, so the check costs one length test.

/** Lines up to this many characters are written as they are. */
export const LINE_LIMIT = 16 * 1024;
/** In a longer line, strings keep at most this many characters. */
export const FIELD_LIMIT = 2 * 1024;

/** pino's streamWrite hook: the serialised line, bounded. */
export function boundedLogLine(line: string): string {
  if (line.length <= LINE_LIMIT) return line;
  let parsed: unknown;
  try {
    parsed = JSON.parse(line);
  } catch {
    return `${cut(line.trimEnd())}\n`;
  }
  return `${JSON.stringify(boundStrings(parsed))}\n`;
}

function boundStrings(value: unknown): unknown {
  if (typeof value === "string") return cut(value);
  if (Array.isArray(value)) return value.map(boundStrings);
  if (value !== null && typeof value === "object") {
    const bounded: Record<string, unknown> = {};
    for (const [key, field] of Object.entries(value)) bounded[cut(key)] = boundStrings(field);
    return bounded;
  }
  return value;
}

function cut(text: string): string {
  return text.length <= FIELD_LIMIT ? text : `${text.slice(0, FIELD_LIMIT)}…[truncated, ${text.length} characters]`;
}
