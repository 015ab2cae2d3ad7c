// Line and column (1-based) of an offset in a script, for problems that point
// inside a statement (a database error's position, a name that does not exist).
import type { SqlStatement } from "./split.ts";

export interface ScriptPosition {
  line: number;
  column: number;
}

export function positionAt(script: string, offset: number): ScriptPosition {
  const clamped = Math.max(0, Math.min(offset, script.length));
  const before = script.slice(0, clamped);
  const lineStart = before.lastIndexOf("\n") + 1;
  let line = 1;
  for (let i = before.indexOf("\n"); i >= 0; i = before.indexOf("\n", i + 1)) line++;
  return { line, column: clamped - lineStart + 1 };
}

/** The position of the statement's character at `offset` (0-based, inside its text). */
export function positionInStatement(script: string, statement: SqlStatement, offset: number | undefined): ScriptPosition {
  if (offset === undefined || offset < 0 || offset > statement.text.length) return { line: statement.line, column: statement.column };
  return positionAt(script, statement.start + offset);
}
