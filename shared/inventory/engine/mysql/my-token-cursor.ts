// Reads a MySQL statement's tokens left to right: keywords, table names
// (optionally schema-qualified) and comma-separated lists, for the checks of
// my-schema-model.ts.
import { isIdentifier, type Token } from "./my-tokens.ts";

export interface TableRef {
  /** As written; undefined when the name is not qualified. */
  schema: string | undefined;
  name: string;
  /** The name lower-cased, for comparisons. */
  key: string;
  /** Where the reference starts in the statement. */
  offset: number;
}

/** Reads tokens left to right. */
export class Cursor {
  private readonly tokens: Token[];
  private i = 0;

  constructor(tokens: Token[]) {
    this.tokens = tokens;
  }

  peek(ahead = 0): Token | undefined {
    return this.tokens[this.i + ahead];
  }

  /** The current token's keyword (upper-cased), "" when it is not a word. */
  word(): string {
    return this.peek()?.upper ?? "";
  }

  skip(): void {
    this.i++;
  }

  /** Consumes the words when they come next, in order. */
  accept(...words: string[]): boolean {
    if (!words.every((w, k) => this.peek(k)?.upper === w)) return false;
    this.i += words.length;
    return true;
  }

  acceptSymbol(symbol: string): boolean {
    if (this.peek()?.kind !== "symbol" || this.peek()?.value !== symbol) return false;
    this.i++;
    return true;
  }

  /** `name` or `schema`.`name`. */
  tableRef(): TableRef | undefined {
    const first = this.peek();
    if (!isIdentifier(first)) return undefined;
    this.i++;
    if (this.peek()?.value === "." && isIdentifier(this.peek(1))) {
      const second = this.peek(1)!;
      this.i += 2;
      return { schema: first.value, name: second.value, key: second.value.toLowerCase(), offset: first.offset };
    }
    return { schema: undefined, name: first.value, key: first.value.toLowerCase(), offset: first.offset };
  }

  /** The comma-separated items inside the parentheses that start here; the cursor moves past them. */
  parenthesized(): Token[][] {
    const items: Token[][] = [[]];
    let depth = 0;
    for (; this.i < this.tokens.length; this.i++) {
      const token = this.tokens[this.i]!;
      if (token.kind === "symbol" && token.value === "(" && depth++ === 0) continue;
      if (token.kind === "symbol" && token.value === ")" && --depth === 0) {
        this.i++;
        break;
      }
      if (depth === 1 && token.kind === "symbol" && token.value === ",") items.push([]);
      else items.at(-1)!.push(token);
    }
    return items;
  }

  /** The remaining tokens split at top-level commas. */
  commaSeparated(): Token[][] {
    const items: Token[][] = [[]];
    let depth = 0;
    for (const token of this.rest()) {
      if (token.kind === "symbol" && token.value === "(") depth++;
      if (token.kind === "symbol" && token.value === ")") depth--;
      if (depth === 0 && token.kind === "symbol" && token.value === ",") items.push([]);
      else items.at(-1)!.push(token);
    }
    this.i = this.tokens.length;
    return items.filter((item) => item.length > 0);
  }

  rest(): Token[] {
    return this.tokens.slice(this.i);
  }
}
