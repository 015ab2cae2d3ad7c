// The first of the SQL Editor's three read-only guards (contract §14.3; the
// others are the read-only transaction and the READ_ONLY data source): every
// statement of a script is parsed before anything reaches the target, and a
// script with one statement that is not a read is refused whole. The
// statements are split as the target will receive them, one at a time, and
// each one must parse as exactly one statement. Each is parsed once per call:
// its tree goes on to masking and export. A MySQL statement whose words make
// it certainly a plain read skips the parse (docs/decisions/0127); its tree
// is parsed, and checked as any other, only when masking or export asks.
import { type Engine, splitStatements } from "../../inventory/index.ts";
import { invalidArgument, quoted } from "../../platform/index.ts";
import { mysqlRead } from "./my-guard.ts";
import { certainlyMysqlRead } from "./my-plain-read.ts";
import { postgresRead } from "./pg-guard.ts";
import type { ReadStatement, Verdict } from "./statement-tree.ts";

/** The script's statements, each a read, with their trees; invalid_argument naming the first that is not. */
export async function readStatements(engine: Engine, script: string): Promise<ReadStatement[]> {
  const texts = splitStatements(engine, script).map((s) => s.text);
  if (texts.length === 0) throw invalidArgument("statement: no statement to run");
  const statements: ReadStatement[] = [];
  for (const [i, text] of texts.entries()) {
    if (engine === "MYSQL" && certainlyMysqlRead(text)) {
      statements.push(parsedWhenAsked(i, text));
      continue;
    }
    statements.push(readOrRefuse(i, text, engine === "POSTGRES" ? await postgresRead(text) : mysqlRead(text)));
  }
  return statements;
}

function readOrRefuse(i: number, text: string, verdict: Verdict): ReadStatement {
  if (verdict.refusal !== undefined) throw invalidArgument(`only read statements are allowed: statement ${i + 1} ${quoted(text)} ${verdict.refusal}`);
  return { text, tree: verdict.tree };
}

/** A MySQL read whose tree is parsed (once) when first read, through the same guard and refusal as the others. */
function parsedWhenAsked(i: number, text: string): ReadStatement {
  let parsed: ReadStatement | undefined;
  return {
    text,
    get tree() {
      parsed ??= readOrRefuse(i, text, mysqlRead(text));
      return parsed.tree;
    },
  };
}
