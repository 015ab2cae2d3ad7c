// MySQL statements through node-sql-parser, one at a time (the split handles
// DELIMITER and gives each statement's position): a statement the MySQL
// grammar refuses is tried with the MariaDB one before it counts as unparsed,
// and one unparsed statement leaves the others reviewed. Synchronous, so that
// worker threads can run it too (mysql-parser-pool.ts).
import { createRequire } from "node:module";
import type { Parser as SqlParser } from "node-sql-parser";
import type { SqlStatement } from "../../inventory/index.ts";
import { mysqlFacts } from "./mysql-facts.ts";
import type { Tree } from "./mysql-nodes.ts";
import type { ParsedStatement } from "./parsed-statement.ts";
import { positionIn } from "./positions.ts";

type ParserModule = { Parser: new () => SqlParser };

let grammars: { database: string; parser: SqlParser }[] | undefined;

/** The MySQL grammar, then the MariaDB one; loaded on first use (a few hundred kB of parser each). */
function loadGrammars(): { database: string; parser: SqlParser }[] {
  if (grammars) return grammars;
  const require = createRequire(import.meta.url);
  grammars = [
    { database: "mysql", parser: new (require("node-sql-parser/build/mysql.js") as ParserModule).Parser() },
    { database: "mariadb", parser: new (require("node-sql-parser/build/mariadb.js") as ParserModule).Parser() },
  ];
  return grammars;
}

/** Parses statements numbered from firstIndex on. */
export function parseMysqlPieces(pieces: readonly SqlStatement[], firstIndex: number): ParsedStatement[] {
  return pieces.map((piece, i) => parsePiece(piece, firstIndex + i));
}

function parsePiece(piece: SqlStatement, index: number): ParsedStatement {
  let firstError: unknown;
  for (const { database, parser } of loadGrammars()) {
    try {
      const ast = parser.astify(piece.text, { database });
      const tree = (Array.isArray(ast) ? ast[0] : ast) as unknown as Tree;
      return { index, line: piece.line, column: piece.column, facts: mysqlFacts(tree) };
    } catch (error) {
      firstError ??= error;
    }
  }
  const message = shortened(firstError instanceof Error ? firstError.message : String(firstError));
  return { index, line: piece.line, column: piece.column, unparsed: { message, ...positionIn(piece.text, piece, errorOffset(firstError)) } };
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
