// What the read-only guard answers for each statement it lets through: the
// statement's text and the tree it parsed, so that masking and export read
// the statement without parsing it again.

/** A parse tree of plain objects: libpg-query's statement node, or node-sql-parser's tree. */
export type Tree = Record<string, any>;

export interface ReadStatement {
  /** As the target receives it. */
  text: string;
  /**
   * The parsed statement; undefined for a MySQL SHOW the grammars lack (read by the guard from its words).
   * A MySQL read the guard's fast path let through is parsed on first reading (which may throw the guard's refusal).
   */
  tree: Tree | undefined;
}

/** One statement's verdict: its tree when it is a read, else why it is not. */
export type Verdict = { tree: Tree | undefined; refusal?: undefined } | { refusal: string };
