// The MySQL guard's fast path (docs/decisions/0127): node-sql-parser costs
// about 0.2 ms a statement, so a statement that is certainly a plain read is
// recognised from its words alone — what lies outside strings, `quoted`
// names and comments, lexed as the server lexes it. It answers "certainly a
// read" only for SELECT, WITH … SELECT (or either in parentheses), SHOW,
// and EXPLAIN of a SELECT (node-sql-parser reads no DESCRIBE of one), holding no word that could write, lock,
// store its result, change the session or run other text, and naming no
// function of the guard's denylist. Anything else, and anything it cannot
// lex with certainty, is "unsure" and goes through the full parse: the fast
// path can only ever hand a statement on, never accept more.
import { deniedMysqlFunction } from "./denied-functions.ts";

/**
 * Text that makes the lexing uncertain wherever it stands: an executable
 * comment (/*! … *\/, /*M! … *\/) or optimizer hint (/*+ … *\/) the server
 * reads as code, a backslash (whose meaning in a string depends on
 * NO_BACKSLASH_ESCAPES), a NUL (where the server's line comment stops).
 */
const UNSURE_TEXT = /\/\*[!M+]|[\\\0]/;
const WORD = /[A-Za-z0-9_$]+/y;
/** Numbers as MySQL writes them; any other word starting with a digit (`1into`) is left to the parser. */
const NUMBER = /^(?:\d+|\d+e\d*|0x[0-9a-f]+|0b[01]+)$/i;
/** The only symbols a plain read needs; `;` (a second statement), `:` (`:=` assigns), `{`, `?` and the rest are unsure. */
const SYMBOLS = new Set([..."(),.*+-/%=<>!&|^~@"]);
const SPACE = new Set([" ", "\t", "\n", "\r", "\f", "\v"]);

const FIRST_WORDS = new Set(["SELECT", "WITH", "SHOW"]);

/** Words a plain read never needs; generous, since a word wrongly here costs only the full parse. */
const UNSURE_WORDS = new Set([
  "INTO", "OUTFILE", "DUMPFILE", "FOR", "LOCK", "LOCKED", "SHARE", "NOWAIT", "UPDATE", "DELETE", "INSERT", "REPLACE", "MERGE",
  "UPSERT", "RETURNING", "CALL", "HANDLER", "DO", "SET", "LOAD", "PROCEDURE", "ANALYSE", "CREATE", "ALTER", "DROP",
  "TRUNCATE", "RENAME", "GRANT", "REVOKE", "KILL", "FLUSH", "RESET", "PURGE", "START", "BEGIN", "COMMIT", "ROLLBACK",
  "SAVEPOINT", "RELEASE", "XA", "PREPARE", "EXECUTE", "DEALLOCATE", "INSTALL", "UNINSTALL", "SHUTDOWN", "RESTART",
  "ANALYZE", "OPTIMIZE", "REPAIR", "CHECK", "CHECKSUM", "CACHE", "CHANGE", "STOP", "USE", "SIGNAL", "RESIGNAL", "GET",
  "VALUES", "IMPORT", "CLONE", "BINLOG", "BACKUP", "WAIT", "NEXT", "PREVIOUS", "NEXTVAL", "SETVAL", "LASTVAL",
  "LAST_INSERT_ID", "EVENT", "TRIGGER", "DEFINER",
]);

/** Whether the statement (one, as the guard's split gives it) is certainly a plain read; false means "unsure". */
export function certainlyMysqlRead(text: string): boolean {
  if (UNSURE_TEXT.test(text)) return false;
  const words = codeWords(text);
  if (!words || !words.every(plainWord)) return false;
  return readingStart(words);
}

type Word = { value: string; quoted: boolean };

/** The statement's code as words (upper-cased), `quoted` names and symbols; undefined when something in it is unsure. */
function codeWords(text: string): Word[] | undefined {
  const words: Word[] = [];
  let depth = 0;
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    let end: number;
    if (SPACE.has(c)) end = i + 1;
    else if (c === "#" || (c === "-" && text[i + 1] === "-")) end = lineCommentEnd(text, i, c === "#");
    else if (c === "/" && text[i + 1] === "*") end = blockCommentEnd(text, i);
    else if (c === "'" || c === '"' || c === "`") {
      end = quotedEnd(text, i);
      // A double-quoted name under ANSI_QUOTES may call a function: its text is checked as a name too.
      if (end > 0 && c !== "'") words.push({ value: text.slice(i + 1, end - 1).replaceAll(c + c, c), quoted: true });
    } else if (SYMBOLS.has(c)) {
      end = i + 1;
      depth += c === "(" ? 1 : c === ")" ? -1 : 0;
      if (depth < 0) return undefined;
      words.push({ value: c, quoted: false });
    } else {
      WORD.lastIndex = i;
      const word = WORD.exec(text)?.[0];
      if (!word || (/^\d/.test(word) && !NUMBER.test(word))) return undefined;
      end = i + word.length;
      words.push({ value: word.toUpperCase(), quoted: false });
    }
    if (end < 0) return undefined;
    i = end;
  }
  return depth === 0 ? words : undefined;
}

/** `#` and `-- ` run to the line's end; `--` without a space after it, or a lone CR inside, is unsure. */
function lineCommentEnd(text: string, start: number, hash: boolean): number {
  if (!hash && !SPACE.has(text[start + 2] ?? " ")) return -1;
  const newline = text.indexOf("\n", start);
  const end = newline < 0 ? text.length : newline;
  const carriage = text.indexOf("\r", start);
  return carriage >= 0 && carriage < end - 1 ? -1 : end;
}

/** MySQL's block comments do not nest; an unterminated one is unsure. */
function blockCommentEnd(text: string, start: number): number {
  const close = text.indexOf("*/", start + 2);
  return close < 0 ? -1 : close + 2;
}

/** The end of a quoted string or name (a doubled quote stands for itself; no backslash reaches here); -1 when unterminated. */
function quotedEnd(text: string, start: number): number {
  const quote = text[start]!;
  for (let j = text.indexOf(quote, start + 1); j >= 0; j = text.indexOf(quote, j + 2)) {
    if (text[j + 1] !== quote) return j + 1;
  }
  return -1;
}

function plainWord({ value, quoted }: Word): boolean {
  return (quoted || !UNSURE_WORDS.has(value)) && !deniedMysqlFunction(value);
}

/** SELECT, WITH or SHOW first (past opening parentheses), or EXPLAIN of a SELECT or WITH. */
function readingStart(words: Word[]): boolean {
  let at = words[0]?.value === "EXPLAIN" && !words[0].quoted ? 1 : 0;
  while (words[at]?.value === "(" && !words[at]!.quoted) at++;
  const first = words[at];
  if (!first || first.quoted || !FIRST_WORDS.has(first.value)) return false;
  // A SHOW with parentheses (a subquery, a function in its WHERE) is left to the parser, as is a SHOW explained.
  if (first.value === "SHOW") return at === 0 && !words.some((w) => !w.quoted && w.value === "(");
  return true;
}
