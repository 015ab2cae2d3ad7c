// A small MySQL tokenizer for the dry run's name checks: words, `quoted`
// identifiers, strings, numbers and single-character symbols with their
// offsets in the statement; comments and white space dropped.
export interface Token {
  kind: "word" | "name" | "string" | "number" | "symbol";
  /** The identifier without its backticks, the word as written, or the symbol. */
  value: string;
  /** The word upper-cased (for keyword tests); "" for other kinds. */
  upper: string;
  offset: number;
}

const WORD = /[A-Za-z0-9_$\u0080-\uffff]+/y;

export function tokenize(text: string): Token[] {
  const tokens: Token[] = [];
  let i = 0;
  while (i < text.length) {
    const c = text[i]!;
    if (/\s/.test(c)) i++;
    else if (c === "#" || (text.startsWith("--", i) && /\s|$/.test(text[i + 2] ?? ""))) i = after(text, "\n", i);
    else if (text.startsWith("/*", i)) i = after(text, "*/", i + 2);
    else if (c === "`" || c === "'" || c === '"') i = quoted(text, i, tokens);
    else {
      WORD.lastIndex = i;
      const word = WORD.exec(text)?.[0];
      if (word) tokens.push({ kind: /^\d+$/.test(word) ? "number" : "word", value: word, upper: word.toUpperCase(), offset: i });
      else tokens.push({ kind: "symbol", value: c, upper: "", offset: i });
      i += word ? word.length : 1;
    }
  }
  return tokens;
}

function after(text: string, end: string, from: number): number {
  const at = text.indexOf(end, from);
  return at < 0 ? text.length : at + end.length;
}

function quoted(text: string, start: number, tokens: Token[]): number {
  const quote = text[start]!;
  let value = "";
  let i = start + 1;
  while (i < text.length) {
    const c = text[i]!;
    if (c === "\\" && quote !== "`") {
      value += text[i + 1] ?? "";
      i += 2;
    } else if (c === quote && text[i + 1] === quote) {
      value += quote;
      i += 2;
    } else if (c === quote) {
      i++;
      break;
    } else {
      value += c;
      i++;
    }
  }
  tokens.push({ kind: quote === "`" ? "name" : "string", value, upper: "", offset: start });
  return i;
}

/** Whether the token is an identifier (a word that may be a name, or a `quoted` one). */
export function isIdentifier(token: Token | undefined): token is Token {
  return token !== undefined && (token.kind === "word" || token.kind === "name");
}

/** Identifier values the statement mentions, lower-cased: the words and quoted names in it. */
export function mentionedNames(tokens: Token[]): Set<string> {
  return new Set(tokens.filter(isIdentifier).map((t) => t.value.toLowerCase()));
}

/** First parts of `a.b` references, lower-cased (a schema name or a table alias). */
export function qualifiers(tokens: Token[]): Set<string> {
  const found = new Set<string>();
  tokens.forEach((token, i) => {
    if (isIdentifier(token) && tokens[i + 1]?.value === "." && tokens[i + 1]?.kind === "symbol" && isIdentifier(tokens[i + 2])) {
      found.add(token.value.toLowerCase());
    }
  });
  return found;
}
