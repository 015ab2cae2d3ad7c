// MySQL statements through node-sql-parser: a statement its MySQL grammar
// refuses is tried with the MariaDB one (each grammar is a few hundred kB of
// parser, loaded on first use). Synchronous, so that worker threads can run
// it too. The change review and the SQL Editor's read-only guard both read
// statements through it.
import { createRequire } from "node:module";
import type { Parser } from "node-sql-parser";

/** A statement's tree as node-sql-parser gives it. */
export type MysqlTree = Record<string, unknown>;

type Grammar = { database: string; parser: Parser };

let grammars: Grammar[] | undefined;

function loadGrammars(): Grammar[] {
  if (grammars) return grammars;
  const require = createRequire(import.meta.url);
  const load = (file: string) => new (require(`node-sql-parser/build/${file}.js`) as { Parser: new () => Parser }).Parser();
  grammars = [
    { database: "mysql", parser: load("mysql") },
    { database: "mariadb", parser: load("mariadb") },
  ];
  return grammars;
}

/** The trees of `text` (one per statement it holds), or the first grammar's error when neither parses it. */
export function parseMysql(text: string): { trees: MysqlTree[] } | { error: unknown } {
  let firstError: unknown;
  for (const { database, parser } of loadGrammars()) {
    try {
      const ast = parser.astify(text, { database }) as unknown as MysqlTree | MysqlTree[];
      return { trees: Array.isArray(ast) ? ast : [ast] };
    } catch (error) {
      firstError ??= error;
    }
  }
  return { error: firstError };
}
