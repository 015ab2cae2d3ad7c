// MySQL statements, one at a time (the split handles DELIMITER and gives each
// statement's position): one unparsed statement leaves the others reviewed.
// Each goes first through sqlparser-rs (@guanmingchiu/sqlparser-ts, WASM:
// several times faster than node-sql-parser) and its adapter
// (mysql-rs-facts.ts); when sqlparser-rs refuses the statement or the adapter
// does not handle its kind, through node-sql-parser (inventory's parseMysql:
// the MySQL grammar, then the MariaDB one) as before, whose messages and
// positions an unparsed statement keeps. Synchronous once the WASM module is
// loaded (readyMysqlParser), so that worker threads can run it too
// (mysql-parser-pool.ts); a thread where it is not loaded (or failed to load)
// reads every statement with node-sql-parser: slower, the same facts.
import { init, parse } from "@guanmingchiu/sqlparser-ts";
import type { SqlStatement } from "../../inventory/index.ts";
import { parseMysql } from "../../inventory/parsers.ts";
import type { StatementFacts } from "./facts.ts";
import { mysqlFacts } from "./mysql-facts.ts";
import type { Tree } from "./mysql-nodes.ts";
import { mysqlRsFacts } from "./mysql-rs-facts.ts";
import type { ParsedStatement } from "./parsed-statement.ts";
import { positionIn } from "./positions.ts";

let ready = false;

/** Loads sqlparser-rs's WASM module (once per thread); never rejects, as node-sql-parser reads every statement without it. */
export async function readyMysqlParser(): Promise<void> {
  ready = await init().then(
    () => true,
    () => false,
  );
}

/** Parses statements numbered from firstIndex on. */
export function parseMysqlPieces(pieces: readonly SqlStatement[], firstIndex: number): ParsedStatement[] {
  return pieces.map((piece, i) => parsePiece(piece, firstIndex + i));
}

function parsePiece(piece: SqlStatement, index: number): ParsedStatement {
  const facts = ready ? sqlparserRsFacts(piece.text) : undefined;
  if (facts) return { index, line: piece.line, column: piece.column, facts };
  const parsed = parseMysql(piece.text);
  if ("trees" in parsed) return { index, line: piece.line, column: piece.column, facts: mysqlFacts(parsed.trees[0] as Tree) };
  const message = shortened(parsed.error instanceof Error ? parsed.error.message : String(parsed.error));
  return { index, line: piece.line, column: piece.column, unparsed: { message, ...positionIn(piece.text, piece, errorOffset(parsed.error)) } };
}

/** The facts through sqlparser-rs, or undefined when it refuses the statement or its adapter does not claim it. */
export function sqlparserRsFacts(text: string): StatementFacts | undefined {
  let statements: unknown[];
  try {
    statements = parse(text, "mysql");
  } catch {
    return undefined;
  }
  return statements.length === 1 ? mysqlRsFacts(statements[0], text) : undefined;
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
