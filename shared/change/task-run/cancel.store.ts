// SQL of task-run cancellation (contract §12.5, §12.7): the reason a RUNNING
// run must stop (task_run.cancel_reason), and the notice that tells the
// worker executing it, sent on one channel in the requesting transaction (so
// it is delivered exactly when the request commits). Each worker process
// listens on its own connection.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";

export const CANCEL_CHANNEL = "svc_task_run_cancel";

/** Records why a RUNNING run must stop; false when it is no longer RUNNING. */
export async function recordCancelReason(db: CommonQueryMethods, runId: number, reason: string): Promise<boolean> {
  const result = await db.query(sql.unsafe`
    update task_run set cancel_reason = ${reason}, update_time = now() where id = ${runId} and state = 'RUNNING'`);
  return result.rowCount > 0;
}

/** Why the RUNNING run must stop, if someone asked. */
export async function findCancelReason(db: CommonQueryMethods, runId: number): Promise<string | undefined> {
  const reason = await db.maybeOneFirst(sql.type(z.object({ cancel_reason: z.string().nullable() }))`
    select cancel_reason from task_run where id = ${runId} and state = 'RUNNING'`);
  return reason ?? undefined;
}

/** Tells the workers, at commit, that the runs were asked to stop. */
export async function noticeCancels(db: CommonQueryMethods, runIds: readonly number[]): Promise<void> {
  if (runIds.length === 0) return;
  await db.query(sql.unsafe`select pg_notify(${CANCEL_CHANNEL}, id::text) from unnest(${sql.array(runIds, "int8")}) as id`);
}
