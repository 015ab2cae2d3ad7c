// PostgreSQL scripts through libpg-query (PostgreSQL's own parser as WASM):
// the whole script in one call; when it refuses the script, statement by
// statement, so that one bad statement leaves the others reviewed.
import type { Node } from "@pgsql/types";
import { hasSqlDetails } from "libpg-query";
import type { SqlStatement } from "../../inventory/index.ts";
import { parsePostgres } from "../../inventory/parsers.ts";
import type { ParsedStatement } from "./parsed-statement.ts";
import { charOffsetsOf, positionIn } from "./positions.ts";
import { postgresFacts } from "./postgres-facts.ts";

export async function parsePostgresScript(script: string, pieces: readonly SqlStatement[]): Promise<ParsedStatement[]> {
  const parsed = await parsePostgres(script);
  if (!("trees" in parsed)) {
    const statements: ParsedStatement[] = [];
    for (const [index, piece] of pieces.entries()) statements.push(...(await parsePiece(piece, index)));
    return statements;
  }
  // The parser's statements are matched to the split ones by offset (statement locations are UTF-8 byte offsets).
  const charOffset = charOffsetsOf(script);
  const statements: ParsedStatement[] = [];
  let index = 0;
  for (const raw of parsed.trees) {
    const start = charOffset(raw.stmt_location ?? 0);
    while (index < pieces.length - 1 && pieces[index]!.end <= start) index++;
    const piece = pieces[index];
    if (piece && raw.stmt) statements.push(readStatement(raw.stmt, index, piece));
  }
  return statements;
}

/** The statement's facts; a tree the adapter cannot read counts as unparsed rather than failing the review. */
function readStatement(stmt: Node, index: number, piece: SqlStatement): ParsedStatement {
  const at = { index, line: piece.line, column: piece.column };
  try {
    return { ...at, facts: postgresFacts(stmt) };
  } catch (error) {
    return { ...at, unparsed: { message: `the review could not read the statement: ${(error as Error).message}`, line: piece.line, column: piece.column } };
  }
}

async function parsePiece(piece: SqlStatement, index: number): Promise<ParsedStatement[]> {
  const parsed = await parsePostgres(piece.text);
  if ("trees" in parsed) return parsed.trees.flatMap((raw) => (raw.stmt ? [readStatement(raw.stmt, index, piece)] : []));
  const error = parsed.error;
  const cursor = hasSqlDetails(error) ? (error.sqlDetails?.cursorPosition ?? 0) : 0;
  const offset = Buffer.from(piece.text, "utf8").subarray(0, cursor).toString("utf8").length;
  const message = error instanceof Error ? error.message : String(error);
  return [{ index, line: piece.line, column: piece.column, unparsed: { message, ...positionIn(piece.text, piece, offset) } }];
}
