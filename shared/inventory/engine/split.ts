// Splits a change script into its statements without parsing them: a scan
// that knows each engine's quoting and comments, so a `;` inside a string, an
// identifier, a comment or a PostgreSQL dollar-quoted body never ends a
// statement. MySQL scripts may change the delimiter with the client command
// `DELIMITER xx` at the start of a line (used around procedure bodies).
import type { Engine } from "./target.ts";

export interface SqlStatement {
  /** The statement without its delimiter, leading comments or surrounding white space. */
  text: string;
  /** Offsets of `text` in the script (end exclusive). */
  start: number;
  end: number;
  /** 1-based position of the statement's first character. */
  line: number;
  column: number;
}

const DELIMITER_COMMAND = /^[ \t]*delimiter[ \t]+(\S+)[ \t]*(?:\r?\n|$)/i;
const DOLLAR_TAG = /^\$(?:[A-Za-z_][A-Za-z0-9_]*)?\$/;

export function splitStatements(engine: Engine, script: string): SqlStatement[] {
  const scanner = new Scanner(engine, script);
  const statements: SqlStatement[] = [];
  let delimiter = ";";
  let firstToken = -1;
  const close = (end: number) => {
    if (firstToken >= 0) statements.push(scanner.statement(firstToken, end));
    firstToken = -1;
  };
  let i = 0;
  while (i < script.length) {
    if (engine === "MYSQL" && firstToken < 0 && scanner.atLineStart(i)) {
      const command = DELIMITER_COMMAND.exec(script.slice(i, i + 200));
      if (command) {
        delimiter = command[1]!;
        i += command[0].length;
        continue;
      }
    }
    const skipped = scanner.skipTrivia(i);
    if (skipped > i) {
      i = skipped;
      continue;
    }
    if (script.startsWith(delimiter, i)) {
      close(i);
      i += delimiter.length;
      continue;
    }
    if (firstToken < 0) firstToken = i;
    i = scanner.skipToken(i);
  }
  close(script.length);
  return statements;
}

class Scanner {
  private readonly engine: Engine;
  private readonly script: string;
  private readonly lineStarts: number[] = [0];

  constructor(engine: Engine, script: string) {
    this.engine = engine;
    this.script = script;
    for (let i = 0; i < script.length; i++) if (script.charCodeAt(i) === 10) this.lineStarts.push(i + 1);
  }

  atLineStart(i: number): boolean {
    return i === 0 || this.script[i - 1] === "\n";
  }

  /** The end of white space or a comment starting at i (i itself when there is none). */
  skipTrivia(i: number): number {
    const s = this.script;
    const c = s[i]!;
    if (c === " " || c === "\t" || c === "\r" || c === "\n" || c === "\f") return i + 1;
    if (c === "-" && s[i + 1] === "-" && (this.engine === "POSTGRES" || /[\s]/.test(s[i + 2] ?? " "))) return this.lineEnd(i);
    if (c === "#" && this.engine === "MYSQL") return this.lineEnd(i);
    if (c === "/" && s[i + 1] === "*") return this.blockCommentEnd(i);
    return i;
  }

  /** The end of the token starting at i: a quoted string or identifier, a dollar-quoted body, or one character. */
  skipToken(i: number): number {
    const s = this.script;
    const c = s[i]!;
    if (c === "'") return this.quotedEnd(i, "'", this.engine === "MYSQL" || this.isEscapeString(i));
    if (c === '"') return this.quotedEnd(i, '"', this.engine === "MYSQL");
    if (c === "`" && this.engine === "MYSQL") return this.quotedEnd(i, "`", false);
    if (c === "$" && this.engine === "POSTGRES" && !/[A-Za-z0-9_]/.test(s[i - 1] ?? " ")) {
      const tag = DOLLAR_TAG.exec(s.slice(i, i + 64))?.[0];
      if (tag) {
        const close = s.indexOf(tag, i + tag.length);
        return close < 0 ? s.length : close + tag.length;
      }
    }
    return i + 1;
  }

  statement(start: number, end: number): SqlStatement {
    let last = end;
    while (last > start && /\s/.test(this.script[last - 1]!)) last--;
    const line = this.lineOf(start);
    return { text: this.script.slice(start, last), start, end: last, line: line + 1, column: start - this.lineStarts[line]! + 1 };
  }

  /** PostgreSQL E'…' strings take backslash escapes. */
  private isEscapeString(i: number): boolean {
    const before = this.script[i - 1];
    return (before === "E" || before === "e") && !/[A-Za-z0-9_]/.test(this.script[i - 2] ?? " ");
  }

  private quotedEnd(i: number, quote: string, backslashEscapes: boolean): number {
    const s = this.script;
    for (let j = i + 1; j < s.length; j++) {
      const c = s[j];
      if (backslashEscapes && c === "\\") j++;
      else if (c === quote) {
        if (s[j + 1] === quote) j++;
        else return j + 1;
      }
    }
    return s.length;
  }

  private lineEnd(i: number): number {
    const newline = this.script.indexOf("\n", i);
    return newline < 0 ? this.script.length : newline + 1;
  }

  /** PostgreSQL block comments nest; MySQL's do not. */
  private blockCommentEnd(i: number): number {
    const s = this.script;
    let depth = 0;
    for (let j = i; j < s.length - 1; j++) {
      if (s[j] === "/" && s[j + 1] === "*" && (depth === 0 || this.engine === "POSTGRES")) {
        depth++;
        j++;
      } else if (s[j] === "*" && s[j + 1] === "/") {
        depth--;
        j++;
        if (depth === 0) return j + 1;
      }
    }
    return s.length;
  }

  private lineOf(offset: number): number {
    let low = 0;
    let high = this.lineStarts.length - 1;
    while (low < high) {
      const mid = (low + high + 1) >> 1;
      if (this.lineStarts[mid]! <= offset) low = mid;
      else high = mid - 1;
    }
    return low;
  }
}
