// Where things are in a script: 1-based line and column inside a statement,
// and the character offset of a UTF-8 byte offset (PostgreSQL's parser
// reports byte offsets; scripts are JavaScript strings).

export interface Position {
  line: number;
  column: number;
}

/** The position of an offset inside a statement that starts at `start` (its own line and column). */
export function positionIn(text: string, start: Position, offset: number): Position {
  const before = text.slice(0, Math.max(0, offset));
  const lastNewline = before.lastIndexOf("\n");
  if (lastNewline < 0) return { line: start.line, column: start.column + before.length };
  let lines = 0;
  for (let i = before.indexOf("\n"); i >= 0; i = before.indexOf("\n", i + 1)) lines++;
  return { line: start.line + lines, column: before.length - lastNewline };
}

/** Converts byte offsets of the script's UTF-8 encoding to character offsets. */
export function charOffsetsOf(script: string): (byteOffset: number) => number {
  if (isAscii(script)) return (byteOffset) => byteOffset;
  const map = new Uint32Array(Buffer.byteLength(script, "utf8") + 1);
  let byte = 0;
  for (let i = 0; i < script.length; i++) {
    const code = script.codePointAt(i)!;
    const width = code < 0x80 ? 1 : code < 0x800 ? 2 : code < 0x10000 ? 3 : 4;
    map.fill(i, byte, byte + width);
    byte += width;
    if (code >= 0x10000) i++; // the low surrogate belongs to the same code point
  }
  map[byte] = script.length;
  return (byteOffset) => map[Math.max(0, Math.min(byteOffset, map.length - 1))]!;
}

/** A string's UTF-8 length in bytes. */
export function utf8Length(text: string): number {
  return isAscii(text) ? text.length : Buffer.byteLength(text, "utf8");
}

function isAscii(text: string): boolean {
  return /^[\x00-\x7f]*$/.test(text);
}
