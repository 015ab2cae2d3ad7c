// MySQL statements through node-sql-parser (inventory's parseMysql: the MySQL
// grammar, then the MariaDB one), one at a time (the split handles DELIMITER
// and gives each statement's position): one unparsed statement leaves the
// others reviewed. Synchronous, so that worker threads can run it too
// (mysql-parser-pool.ts).
import type { SqlStatement } from "../../inventory/index.ts";
import { parseMysql } from "../../inventory/parsers.ts";
import { mysqlFacts } from "./mysql-facts.ts";
import type { Tree } from "./mysql-nodes.ts";
import type { ParsedStatement } from "./parsed-statement.ts";
import { positionIn } from "./positions.ts";

/** Parses statements numbered from firstIndex on. */
export function parseMysqlPieces(pieces: readonly SqlStatement[], firstIndex: number): ParsedStatement[] {
  return pieces.map((piece, i) => parsePiece(piece, firstIndex + i));
}

function parsePiece(piece: SqlStatement, index: number): ParsedStatement {
  const parsed = parseMysql(piece.text);
  if ("trees" in parsed) return { index, line: piece.line, column: piece.column, facts: mysqlFacts(parsed.trees[0] as Tree) };
  const message = shortened(parsed.error instanceof Error ? parsed.error.message : String(parsed.error));
  return { index, line: piece.line, column: piece.column, unparsed: { message, ...positionIn(piece.text, piece, errorOffset(parsed.error)) } };
}

/** Where the grammar stopped, from a parse error's location (offset in the statement). */
function errorOffset(error: unknown): number {
  const offset = (error as { location?: { start?: { offset?: unknown } } } | undefined)?.location?.start?.offset;
  return typeof offset === "number" ? offset : 0;
}

/** The grammar lists every token it expected; the first few say enough. */
function shortened(message: string): string {
  const match = /^Expected (.*) but (.*) found\.$/s.exec(message);
  if (!match) return message;
  const expected = match[1]!.split(", ");
  const shown = expected.length > 6 ? `${expected.slice(0, 6).join(", ")}, …` : match[1];
  return `Expected ${shown} but ${match[2]} found.`;
}
