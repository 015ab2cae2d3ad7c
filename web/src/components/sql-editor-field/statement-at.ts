// Which statement of a script a key press means: the selection when there is
// one, else the statement under the cursor. Statements end at `;` outside
// quotes, identifiers and comments (and PostgreSQL's dollar quotes, MySQL's
// backslash escapes and `#` comments), the way the targets split them.

export type SqlDialect = "postgres" | "mysql";

export interface StatementSpan {
  /** Where the statement's own text starts and ends (spaces around it left out). */
  from: number;
  to: number;
}

/** The statements of `text`, in order; a part holding only spaces and comments is none. */
export function statementSpans(text: string, dialect: SqlDialect): StatementSpan[] {
  return segments(text, dialect).filter((s) => s.meaningful).map(({ from, to }) => ({ from, to }));
}

/** The text to run: the selection when not empty, else the statement at `cursor` (or the last one before it). */
export function runnableText(text: string, selection: { from: number; to: number }, dialect: SqlDialect): string {
  if (selection.to > selection.from) return text.slice(selection.from, selection.to).trim();
  const parts = segments(text, dialect);
  const at = parts.findIndex((part) => selection.from < part.end);
  const candidates = parts.slice(0, at < 0 ? parts.length : at + 1).filter((part) => part.meaningful);
  const chosen = candidates.at(-1) ?? parts.find((part) => part.meaningful);
  return chosen ? text.slice(chosen.from, chosen.to) : "";
}

interface Segment extends StatementSpan {
  /** The position after its `;` (or the end of the text). */
  end: number;
  /** Holds more than spaces and comments. */
  meaningful: boolean;
}

function segments(text: string, dialect: SqlDialect): Segment[] {
  const found: Segment[] = [];
  let start = 0;
  let first = -1; // the first character of code (not space) in this segment
  let last = -1; // the last one
  const code = (from: number, to: number) => {
    if (first < 0) first = from;
    last = to;
  };
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    const skipped = skipQuotedOrComment(text, i, dialect);
    if (skipped.end > i) {
      if (skipped.code) code(i, skipped.end);
      else if (first >= 0) last = Math.max(last, skipped.end); // a comment inside a statement stays with it
      i = skipped.end;
      continue;
    }
    if (c === ";") {
      found.push(segment(start, i + 1, first, last));
      start = i + 1;
      first = last = -1;
    } else if (!/\s/.test(c)) {
      code(i, i + 1);
    }
    i++;
  }
  if (start < text.length) found.push(segment(start, text.length, first, last));
  return found;
}

function segment(start: number, end: number, first: number, last: number): Segment {
  if (first < 0) return { from: start, to: start, end, meaningful: false };
  return { from: first, to: last, end, meaningful: true };
}

/** Where the quoted text or comment starting at `i` ends (`i` itself when none starts there); quotes are code. */
function skipQuotedOrComment(text: string, i: number, dialect: SqlDialect): { end: number; code: boolean } {
  const c = text[i]!;
  const next = text[i + 1];
  if (c === "-" && next === "-") return { end: lineEnd(text, i), code: false };
  if (c === "#" && dialect === "mysql") return { end: lineEnd(text, i), code: false };
  if (c === "/" && next === "*") {
    const close = text.indexOf("*/", i + 2);
    return { end: close < 0 ? text.length : close + 2, code: false };
  }
  if (c === "'" || c === '"' || (c === "`" && dialect === "mysql")) return { end: quoteEnd(text, i, c, dialect === "mysql"), code: true };
  if (c === "$" && dialect === "postgres") {
    const tag = /^\$([A-Za-z_][A-Za-z0-9_]*)?\$/.exec(text.slice(i, i + 64))?.[0];
    if (tag) {
      const close = text.indexOf(tag, i + tag.length);
      return { end: close < 0 ? text.length : close + tag.length, code: true };
    }
  }
  return { end: i, code: false };
}

function lineEnd(text: string, i: number): number {
  const newline = text.indexOf("\n", i);
  return newline < 0 ? text.length : newline;
}

/** A quote closes at its next lone occurrence (doubled is an escape; so is a backslash on MySQL). */
function quoteEnd(text: string, i: number, quote: string, backslashEscapes: boolean): number {
  let j = i + 1;
  while (j < text.length) {
    const c = text[j];
    if (backslashEscapes && c === "\\" && quote !== "`") j += 2;
    else if (c === quote && text[j + 1] === quote) j += 2;
    else if (c === quote) return j + 1;
    else j++;
  }
  return text.length;
}
