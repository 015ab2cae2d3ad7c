// The first keywords of a statement, upper-cased, with comments, white space
// and opening parentheses between them skipped: enough to tell a statement's
// kind without parsing it.
const WORD = /[A-Za-z_][A-Za-z0-9_]*/y;

export function leadingWords(text: string, count: number): string[] {
  const words: string[] = [];
  let i = 0;
  while (i < text.length && words.length < count) {
    const c = text[i]!;
    if (/[\s(]/.test(c)) i++;
    else if (text.startsWith("--", i) || c === "#") i = lineEnd(text, i);
    else if (text.startsWith("/*", i)) i = commentEnd(text, i);
    else {
      WORD.lastIndex = i;
      const word = WORD.exec(text)?.[0];
      if (!word) break;
      words.push(word.toUpperCase());
      i += word.length;
    }
  }
  return words;
}

function lineEnd(text: string, i: number): number {
  const newline = text.indexOf("\n", i);
  return newline < 0 ? text.length : newline + 1;
}

function commentEnd(text: string, i: number): number {
  const close = text.indexOf("*/", i + 2);
  return close < 0 ? text.length : close + 2;
}
