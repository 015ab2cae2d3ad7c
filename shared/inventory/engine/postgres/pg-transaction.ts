// The rolled-back transaction that EXPLAIN and the dry run work in, and the
// savepoint step that lets one failing statement be reported while the
// transaction goes on.
import pg from "pg";

/** Runs `work` inside BEGIN … ROLLBACK with statement and lock timeouts; the rollback always happens. */
export async function inRolledBackTransaction<T>(client: pg.Client, timeoutMs: number, work: () => Promise<T>): Promise<T> {
  await client.query("BEGIN");
  try {
    await applyTimeouts(client, timeoutMs);
    return await work();
  } finally {
    await client.query("ROLLBACK").catch(() => undefined);
  }
}

/** (Re)applies the transaction's timeouts, e.g. after a statement of the script changed settings. */
export async function applyTimeouts(client: pg.Client, timeoutMs: number): Promise<void> {
  const ms = String(Math.max(1, Math.round(timeoutMs)));
  await client.query("select set_config('statement_timeout', $1, true), set_config('lock_timeout', $1, true)", [ms]);
}

export interface StatementFailure {
  message: string;
  /** 0-based offset in the statement, from the error's position, when the server gave one. */
  offset: number | undefined;
}

export type Attempt<T> = { ok: true; value: T } | { ok: false; failure: StatementFailure };

/** Runs one statement and answers its result; an error the server reports about it is returned, anything else (a lost connection) thrown. */
export function runStatement(client: pg.Client, text: string): Promise<Attempt<pg.QueryResult>> {
  return attempt(() => client.query(text));
}

/** Runs one statement whose rows nobody reads: they stream past without being kept, whatever their number. */
export function executeStatement(client: pg.Client, text: string): Promise<Attempt<void>> {
  return attempt(
    () =>
      new Promise<void>((resolve, reject) => {
        const query = new pg.Query(text);
        query.on("row", () => undefined);
        query.on("end", () => resolve());
        query.on("error", reject);
        client.query(query);
      }),
  );
}

/** runStatement under a savepoint, so that a failure leaves the transaction usable. */
export async function runUnderSavepoint(client: pg.Client, text: string): Promise<Attempt<pg.QueryResult>> {
  await client.query("SAVEPOINT explain_step");
  const outcome = await runStatement(client, text);
  await client.query(outcome.ok ? "RELEASE SAVEPOINT explain_step" : "ROLLBACK TO SAVEPOINT explain_step");
  return outcome;
}

async function attempt<T>(work: () => Promise<T>): Promise<Attempt<T>> {
  try {
    return { ok: true, value: await work() };
  } catch (error) {
    // FATAL and PANIC end the session (e.g. the backend was terminated): not the statement's fault.
    if (!(error instanceof pg.DatabaseError) || error.severity === "FATAL" || error.severity === "PANIC") throw error;
    const position = Number(error.position);
    return { ok: false, failure: { message: error.message, offset: Number.isInteger(position) && position > 0 ? position - 1 : undefined } };
  }
}
