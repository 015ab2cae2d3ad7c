// Whether a MySQL/MariaDB statement is a read (contract §14.3), from
// node-sql-parser's tree (its MySQL grammar, then its MariaDB one): SELECT
// (WITH … SELECT included), EXPLAIN of one, DESCRIBE or SHOW — with nothing
// in the tree that writes, locks rows (FOR UPDATE, LOCK IN SHARE MODE),
// stores its result (INTO @var, OUTFILE, DUMPFILE) or calls a denied
// function. The server runs what an executable comment (/*! … */) holds, so
// a statement with one is refused, and so is what neither grammar parses —
// but for the SHOW statements the grammars lack (SHOW VARIABLES, SHOW
// ENGINE …): a SHOW only reads, and one without parentheses can call no
// function and hold no subquery in its WHERE.
import { mysqlTokens } from "../../inventory/index.ts";
import { parseMysql } from "../../inventory/parsers.ts";
import { deniedMysqlFunction } from "./denied-functions.ts";
import type { Tree, Verdict } from "./statement-tree.ts";
import { firstInTree } from "./tree-walk.ts";

const READ_TYPES = new Set(["select", "show", "desc", "explain"]);
const WRITE_TYPES = new Set(["insert", "replace", "update", "delete"]);
const EXECUTABLE_COMMENT = /\/\*[!M]/;

/** The statement's tree when it is a read (none for a SHOW the grammars lack), else why it is not. */
export function mysqlRead(text: string): Verdict {
  if (EXECUTABLE_COMMENT.test(text)) return { refusal: "holds an executable comment (/*! … */), whose text the server runs" };
  const parsed = mysqlTree(text);
  if (typeof parsed === "string") return isPlainShow(text) ? { tree: undefined } : { refusal: parsed };
  const type = String(parsed.type);
  if (!READ_TYPES.has(type)) return { refusal: `is ${type.toUpperCase().replace("_", " ")}` };
  const explained = type === "explain" ? (parsed.expr as Tree | undefined) : undefined;
  if (explained && explained.type !== "select") return { refusal: `is ${String(explained.type).toUpperCase()}` };
  const refusal = firstInTree(parsed, refusalAt);
  return refusal ? { refusal } : { tree: parsed };
}

/** The statement's tree, or why it has none. */
export function mysqlTree(text: string): Tree | string {
  const parsed = parseMysql(text);
  if ("trees" in parsed) return parsed.trees.length === 1 ? parsed.trees[0]! : `holds ${parsed.trees.length} statements`;
  const message = parsed.error instanceof Error ? parsed.error.message : String(parsed.error);
  return `cannot be parsed (${message.length > 160 ? `${message.slice(0, 160)}…` : message})`;
}

function isPlainShow(text: string): boolean {
  const tokens = mysqlTokens(text);
  return tokens[0]?.upper === "SHOW" && !tokens.some((t) => t.kind === "symbol" && (t.value === "(" || t.value === ";"));
}

function refusalAt(node: Tree): string | undefined {
  if (node.locking_read) return `locks rows (${String(node.locking_read).toUpperCase()})`;
  const into = node.into as Tree | null | undefined;
  if (into && (into.keyword || into.expr || into.position)) return "stores its result (SELECT … INTO)";
  if (typeof node.type === "string" && WRITE_TYPES.has(node.type)) return `holds ${node.type.toUpperCase()}`;
  if (node.type === "function") {
    const name = functionName(node.name);
    if (name && deniedMysqlFunction(name)) return `calls ${name}, which a read may not call`;
  }
  return undefined;
}

/** A function's name without its schema: node-sql-parser writes it as text or as {name: [{value}]}. */
function functionName(name: unknown): string | undefined {
  if (typeof name === "string") return name;
  const parts = (name as { name?: { value?: unknown }[] } | undefined)?.name;
  const last = Array.isArray(parts) ? parts.at(-1)?.value : undefined;
  return typeof last === "string" ? last : undefined;
}
