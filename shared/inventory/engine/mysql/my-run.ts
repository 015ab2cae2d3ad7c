// Sends one statement for the dry run or EXPLAIN and turns a server error into
// a reported failure (with the position MySQL names in syntax errors); lost
// connections and other driver errors are thrown. Also the session timeouts
// and the PREPARE syntax check.
import type { Connection } from "mysql2/promise";
import { isIdentifier, tokenize } from "./my-tokens.ts";

export interface MyFailure {
  message: string;
  errno: number;
  /** 0-based offset in the statement text, when the server's message locates the problem. */
  offset: number | undefined;
}

export type MyAttempt = { ok: true; rows: unknown } | { ok: false; failure: MyFailure };

/** The server refuses to PREPARE this kind of statement. */
export const ER_UNSUPPORTED_PS = 1295;
/** Extra time the client waits beyond the server-side timeout before giving up on the connection. */
const CLIENT_GRACE_MS = 2_000;

/** Runs `sql` (the statement text, possibly with a prefix such as EXPLAIN) and reports a server error about `text`. */
export async function runChecked(connection: Connection, sql: string, text: string, timeoutMs: number): Promise<MyAttempt> {
  try {
    const [rows] = await connection.query({ sql, timeout: timeoutMs + CLIENT_GRACE_MS });
    return { ok: true, rows };
  } catch (error) {
    const server = error as { errno?: unknown; sqlState?: unknown; sqlMessage?: unknown; code?: unknown };
    if (server.code === "PROTOCOL_SEQUENCE_TIMEOUT") {
      connection.destroy();
      return { ok: false, failure: { message: `the statement did not finish within ${timeoutMs} ms`, errno: 0, offset: undefined } };
    }
    if (typeof server.errno !== "number" || typeof server.sqlState !== "string") throw error;
    const message = String(server.sqlMessage ?? (error as Error).message);
    return { ok: false, failure: { message, errno: server.errno, offset: syntaxErrorOffset(text, message) ?? unknownNameOffset(text, message) } };
  }
}

/** Asks the server to PREPARE the statement (a syntax check that runs nothing), then forgets it. */
export async function prepareCheck(connection: Connection, text: string, timeoutMs: number): Promise<MyAttempt> {
  await connection.query("SET @dry_run_statement = ?", [text]);
  const outcome = await runChecked(connection, "PREPARE dry_run_check FROM @dry_run_statement", text, timeoutMs);
  if (outcome.ok) await connection.query("DEALLOCATE PREPARE dry_run_check");
  return outcome;
}

/** Bounds each statement of the session (MariaDB: max_statement_time; MySQL: max_execution_time) and lock waits. */
export async function applyTimeouts(connection: Connection, timeoutMs: number, mariadb: boolean): Promise<void> {
  const lockSeconds = Math.max(1, Math.ceil(timeoutMs / 1000));
  if (mariadb) await connection.query("SET SESSION max_statement_time = ?, SESSION innodb_lock_wait_timeout = ?", [timeoutMs / 1000, lockSeconds]);
  else await connection.query("SET SESSION max_execution_time = ?, SESSION innodb_lock_wait_timeout = ?", [timeoutMs, lockSeconds]);
}

/** "Unknown column 'a.x' in …" / "Table 'db.t' doesn't exist": the offset of the first mention of x / t. */
function unknownNameOffset(text: string, message: string): number | undefined {
  const name = /^(?:Unknown column '([^']+)'|Table '([^']+)' doesn't exist)/.exec(message)?.slice(1).find(Boolean);
  const last = name?.split(".").at(-1)?.toLowerCase();
  return last === undefined ? undefined : tokenize(text).find((t) => isIdentifier(t) && t.value.toLowerCase() === last)?.offset;
}

/** "… near 'xyz' at line 2": the offset of xyz on that line of the statement. */
function syntaxErrorOffset(text: string, message: string): number | undefined {
  const found = /near '([\s\S]*)' at line (\d+)$/.exec(message);
  if (!found) return undefined;
  const [, near = "", line = "1"] = found;
  let lineStart = 0;
  for (let n = 1; n < Number(line); n++) {
    const newline = text.indexOf("\n", lineStart);
    if (newline < 0) return undefined;
    lineStart = newline + 1;
  }
  if (near === "") return text.length;
  const at = text.indexOf(near.slice(0, 40), lineStart);
  return at < 0 ? undefined : at;
}
