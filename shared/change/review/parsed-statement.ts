// One statement of a script as a parser gives it to the review: its index and
// position, and either its facts or why the parser refused it. The parsers
// produce it and parsed-script.ts collects it, so it sits apart from both.
import type { StatementFacts } from "./facts.ts";
import type { Position } from "./positions.ts";

export interface ParsedStatement extends Position {
  /** 0-based, as splitStatements numbers the script's statements. */
  index: number;
  facts?: StatementFacts;
  /** Set when the parser refused the statement: its message and where it stopped. */
  unparsed?: { message: string } & Position;
}
