// A script as the review sees it: its statements in order (numbered as
// splitStatements numbers them), each with its position and either the facts
// its engine's parser gave or why the parser refused it. The last script's
// parse is kept (read-only to its users): a plan check reviews and then
// summarizes the same script.
import { type Engine, splitStatements } from "../../inventory/index.ts";
import { parseMysqlStatements } from "./mysql-parser-pool.ts";
import { parsePostgresScript } from "./parse-postgres.ts";
import type { ParsedStatement } from "./parsed-statement.ts";
import type { Position } from "./positions.ts";

export interface ParsedScript {
  engine: Engine;
  /** Parsed statements in script order (a statement the parser refused included, with `unparsed`). */
  statements: ParsedStatement[];
  /** Where each statement starts, by its index, parsed or not. */
  starts: Position[];
}

let last: { engine: Engine; script: string; parsed: Promise<ParsedScript> } | undefined;

export function parseScript(engine: Engine, script: string): Promise<ParsedScript> {
  if (last?.engine !== engine || last.script !== script) last = { engine, script, parsed: parse(engine, script) };
  return last.parsed;
}

async function parse(engine: Engine, script: string): Promise<ParsedScript> {
  const pieces = splitStatements(engine, script);
  const statements = engine === "POSTGRES" ? await parsePostgresScript(script, pieces) : await parseMysqlStatements(pieces);
  return { engine, statements, starts: pieces.map(({ line, column }) => ({ line, column })) };
}
