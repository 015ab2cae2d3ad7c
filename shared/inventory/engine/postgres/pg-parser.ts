// PostgreSQL statements through libpg-query (PostgreSQL's own parser as
// WASM): the module is loaded once per process, on first use, and every
// reader of PostgreSQL trees — the change review, the statement kinds, the
// SQL Editor's guard, masking and export — parses through here.
import type { RawStmt } from "@pgsql/types";
import { loadModule, parseSync } from "libpg-query";

/** One statement of a parsed text: its tree (`stmt`) and where it lies (UTF-8 byte offsets). */
export type PostgresTree = RawStmt;

let loading: Promise<void> | undefined;

/** The statements of `text`, or the parser's error (an SqlError with its position when it has one). */
export async function parsePostgres(text: string): Promise<{ trees: PostgresTree[] } | { error: unknown }> {
  loading ??= loadModule();
  await loading;
  try {
    return { trees: parseSync(text).stmts ?? [] };
  } catch (error) {
    return { error };
  }
}
