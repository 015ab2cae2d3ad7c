// The first of the SQL Editor's three read-only guards (contract §14.3; the
// others are the read-only transaction and the READ_ONLY data source): every
// statement of a script is parsed before anything reaches the target, and a
// script with one statement that is not a read is refused whole. The
// statements are split as the target will receive them, one at a time, and
// each one must parse as exactly one statement.
import { type Engine, splitStatements } from "../../inventory/index.ts";
import { invalidArgument, quoted } from "../../platform/index.ts";
import { mysqlRefusal } from "./my-guard.ts";
import { postgresRefusal } from "./pg-guard.ts";

/** The script's statements, each a read; invalid_argument naming the first that is not. */
export async function readStatements(engine: Engine, script: string): Promise<string[]> {
  const statements = splitStatements(engine, script).map((s) => s.text);
  if (statements.length === 0) throw invalidArgument("statement: no statement to run");
  for (const [i, text] of statements.entries()) {
    const refusal = engine === "POSTGRES" ? await postgresRefusal(text) : mysqlRefusal(text);
    if (refusal) throw invalidArgument(`only read statements are allowed: statement ${i + 1} ${quoted(text)} ${refusal}`);
  }
  return statements;
}
