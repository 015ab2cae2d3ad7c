// SQL on task_run_log (contract §12.1, §12.4): each statement's entry, at
// the statement's index in the script, written in batches, with the
// correlation id of the work writing it (§15.5).
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import { currentCorrelationId, preparedCommand } from "../../../platform/index.ts";
import type { StatementLog } from "../../../inventory/index.ts";

export async function insertLogEntries(db: CommonQueryMethods, runId: number, entries: readonly StatementLog[]): Promise<void> {
  if (entries.length === 0) return;
  await db.query(preparedCommand("task_run_log.insert_entries")`${logEntriesInsert(runId, entries)}`);
}

/** The statement writing the entries (none when empty), for a statement that writes them along with other rows. */
export function logEntriesInsert(runId: number, entries: readonly StatementLog[]): FragmentSqlToken {
  const column = <T>(pick: (e: StatementLog) => T) => entries.map(pick);
  return sql.fragment`
    insert into task_run_log (task_run_id, position, time, statement, rows_affected, duration_ms, error, correlation_id)
    select ${runId}, e.position, e.time, e.statement, e.rows_affected, e.duration_ms, e.error, ${currentCorrelationId() ?? ""}
    from unnest(
      ${sql.array(column((e) => e.index), "int4")}, ${sql.array(column((e) => e.time.toISOString()), "timestamptz")},
      ${sql.array(column((e) => e.statement), "text")}, ${sql.array(column((e) => e.rowsAffected), "int8")},
      ${sql.array(column((e) => e.durationMs), "float8")}, ${sql.array(column((e) => e.error), "text")}
    ) as e (position, time, statement, rows_affected, duration_ms, error)
    on conflict (task_run_id, position) do nothing`;
}

const lastPositionRow = z.object({ last: z.number().nullable() });

/** Index of the first statement the log does not show applied: one past the last entry without an error (`from` when there is none). */
export async function nextUnloggedStatement(db: CommonQueryMethods, runId: number, from: number): Promise<number> {
  const last = await db.oneFirst(sql.type(lastPositionRow)`
    select max(position) as last from task_run_log where task_run_id = ${runId} and error = ''`);
  return last === null ? from : Math.max(from, last + 1);
}

const logEntry = z
  .object({
    time: z.coerce.date(),
    statement: z.string(),
    rows_affected: z.coerce.number(),
    duration_ms: z.number(),
    error: z.string(),
    correlation_id: z.string(),
  })
  .transform((r) => ({
    time: r.time,
    statement: r.statement,
    rowsAffected: r.rows_affected,
    durationMs: r.duration_ms,
    error: r.error,
    correlationId: r.correlation_id,
  }));

export type TaskRunLogEntry = z.infer<typeof logEntry>;

export async function findTaskRunLog(db: CommonQueryMethods, runId: number): Promise<readonly TaskRunLogEntry[]> {
  return db.any(sql.type(logEntry)`
    select time, statement, rows_affected, duration_ms, error, correlation_id from task_run_log where task_run_id = ${runId} order by position`);
}
