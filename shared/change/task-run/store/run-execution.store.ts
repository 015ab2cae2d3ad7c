// SQL of a task run's execution (contract §12.4–§12.6): the session a
// RUNNING run executes in (on record before anything of its script can be
// applied), notes on its detail, why it must stop (task_run.cancel_reason)
// with the notice that tells the worker executing it, and what the
// reconciler reads of a run that lost its worker (a read joining the run's
// task and instance). The notice is sent on one channel in the requesting
// transaction, so it is delivered exactly when the request commits; each
// worker process listens on its own connection.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import type { TargetSession } from "../../../inventory/index.ts";
import { preparedCommand } from "../../../platform/index.ts";
import { releaseFileColumn } from "../../rollout/task.store.ts";

const session = z.union([
  z.object({ pid: z.number(), xid: z.string() }),
  z.object({ pid: z.number(), backendStart: z.string() }),
  z.object({ threadId: z.number() }),
]);

const lostRunRow = z
  .object({
    id: z.coerce.number(),
    task_id: z.coerce.number(),
    project_id: z.string(),
    rollout_id: z.string(),
    instance_id: z.string(),
    database_name: z.string(),
    release_file: releaseFileColumn.nullable(),
    creator: z.string(),
    engine: z.enum(["POSTGRES", "MYSQL"]),
    statement: z.string(),
    first_statement: z.number(),
    backend: session.nullable(),
    transactional: z.boolean().nullable(),
  })
  .transform((r) => ({
    id: r.id,
    taskId: r.task_id,
    projectId: r.project_id,
    rolloutId: r.rollout_id,
    instanceId: r.instance_id,
    databaseName: r.database_name,
    releaseFile: r.release_file ?? undefined,
    creator: r.creator,
    engine: r.engine,
    statement: r.statement,
    firstStatement: r.first_statement,
    session: (r.backend ?? undefined) as TargetSession | undefined,
    transactional: r.transactional ?? undefined,
  }));

/** A RUNNING run whose worker is gone. */
export type LostRun = z.infer<typeof lostRunRow>;

/**
 * Records the session a RUNNING run executes in, before anything of its
 * script can be applied (§12.6); refuses a run no longer RUNNING (settled by
 * the reconciler once its worker lost the run's lock): its script must not
 * go on.
 */
export async function recordRunSession(db: CommonQueryMethods, runId: number, target: TargetSession, transactional: boolean): Promise<void> {
  const result = await db.query(preparedCommand("task_run_execution.record_session")`
    update task_run set backend = ${sql.jsonb(target)}, transactional = ${transactional}, update_time = now()
    where id = ${runId} and state = 'RUNNING'`);
  if (result.rowCount === 0) throw new Error(`task run ${runId} is no longer RUNNING: its script does not go on`);
}

/** Adds a note to a run's detail (e.g. a revision kept instead of recorded). */
export async function appendRunDetail(db: CommonQueryMethods, runId: number, note: string): Promise<void> {
  await db.query(sql.unsafe`update task_run set detail = detail || '; ' || ${note} where id = ${runId}`);
}

export const CANCEL_CHANNEL = "svc_task_run_cancel";

/** Records why a RUNNING run must stop; false when it is no longer RUNNING. */
export async function recordCancelReason(db: CommonQueryMethods, runId: number, reason: string): Promise<boolean> {
  const result = await db.query(sql.unsafe`
    update task_run set cancel_reason = ${reason}, update_time = now() where id = ${runId} and state = 'RUNNING'`);
  return result.rowCount > 0;
}

const cancelReasonRow = z.object({ cancel_reason: z.string().nullable() });

/** Why the RUNNING run must stop, if someone asked. */
export async function findCancelReason(db: CommonQueryMethods, runId: number): Promise<string | undefined> {
  const reason = await db.maybeOneFirst(sql.type(cancelReasonRow)`
    select cancel_reason from task_run where id = ${runId} and state = 'RUNNING'`);
  return reason ?? undefined;
}

/** Tells the workers, at commit, that the runs were asked to stop. */
export async function noticeCancels(db: CommonQueryMethods, runIds: readonly number[]): Promise<void> {
  if (runIds.length === 0) return;
  await db.query(sql.unsafe`select pg_notify(${CANCEL_CHANNEL}, id::text) from unnest(${sql.array(runIds, "int8")}) as id`);
}

/** A RUNNING run with what deciding its end needs (call with the run's lock held). */
export async function findLostRun(db: CommonQueryMethods, id: number): Promise<LostRun | undefined> {
  return (
    (await db.maybeOne(sql.type(lostRunRow)`
      select r.id, r.task_id, r.project_id, r.rollout_id, t.instance_id, t.database_name, t.release_file, r.creator, i.engine,
        t.statement, r.first_statement, r.backend, r.transactional
      from task_run r join task t on t.id = r.task_id join instance i on i.id = t.instance_id
      where r.id = ${id} and r.state = 'RUNNING'`)) ?? undefined
  );
}
