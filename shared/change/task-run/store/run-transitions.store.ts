// SQL of a task run's moves (contract §12.2, §12.4): PENDING → RUNNING (the
// claim, through the start gate) and PENDING or RUNNING → DONE, FAILED or
// CANCELED (the end), each one prepared statement that also moves the run's
// task (task.store.ts runTasksUpdate), with its task's row locked first.
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import type { StatementLog } from "../../../inventory/index.ts";
import { runTasksUpdate, type TaskChanges, type TaskState } from "../../rollout/task.store.ts";
import { gateFactColumns, gateFactsSource, type GateFacts } from "../start-gate.store.ts";
import { logEntriesInsert } from "./task-run-log.store.ts";
import { taskRunColumns, taskRunRow, type FinalRunState, type TaskRunRow } from "./task-run.store.ts";

/**
 * The task of run `runId` if the run is in one of `states`, locked (lock
 * order: task, then run): a statement's first step (`locked_task`), that its
 * change of the run then requires. When a concurrent change of the run
 * committed while the lock was awaited, the run's update re-reads the row
 * and finds it no longer in those states.
 */
function lockedTaskStep(runId: number, states: readonly ("PENDING" | "RUNNING")[]) {
  return sql.fragment`locked_task as (
    select t.id from task t join task_run r on r.task_id = t.id
    where r.id = ${runId} and r.state = any(${sql.array(states, "text")}) for update of t)`;
}

/** The claim's answer: the gate's facts as the claim read them, and whether the run started. */
const claimRow = z.object({
  rollout_state: z.string(),
  plan_check_errors: z.boolean(),
  database_busy: z.boolean(),
  slot_limited: z.boolean(),
  paused: z.boolean(),
  pause: z.record(z.string(), z.unknown()).nullable(),
  window_changed: z.boolean(),
  started: z.boolean(),
});

export interface ClaimAnswer {
  facts: GateFacts;
  /** The project limits the tasks a rollout runs at once (parallel_tasks_per_rollout). */
  slotLimited: boolean;
  /** EMERGENCY_PAUSE is on (read under its row's lock), and its stored payload. */
  paused: boolean;
  pause: Record<string, unknown> | undefined;
  /** MAINTENANCE_WINDOW is stored otherwise than the caller decided on: the run did not start. */
  windowChanged: boolean;
  /** The gate let the run start: it is RUNNING now. */
  started: boolean;
}

/**
 * A step (CTE) named `commit_mode` that makes the statement's own
 * transaction commit without waiting for its WAL flush when `unflushed`
 * holds (a null is false); it takes effect when the statement reads it.
 */
function commitModeStep(unflushed: FragmentSqlToken) {
  return sql.fragment`commit_mode as materialized (select set_config('synchronous_commit', case when ${unflushed} then 'off' else 'on' end, true))`;
}

/**
 * PENDING → RUNNING, its task (locked first) RUNNING, in one prepared
 * statement, if the start gate lets it (contract §12.2, §12.7): the
 * emergency pause is off, the rollout is not paused or cancelled, the plan
 * checks hold no error for the task, no other run on its database is
 * RUNNING, when the project limits a rollout's tasks at once the caller
 * took a slot (`slotTaken`), and MAINTENANCE_WINDOW is stored as the caller
 * read it when it found the window open (`windowSeen`). It answers the
 * gate's facts and whether the run started; undefined when the run is not
 * PENDING. The pause is read under
 * a share lock on its setting's row, which a switch of the pause locks for
 * update: either the switch waits for this start and then finds the run
 * RUNNING, or this start reads the pause as the switch committed it.
 * It commits without waiting for its WAL flush (commitModeStep): a start that
 * a crash of the store loses has applied nothing, since the run's session
 * record, which commits durably after it (and so flushes it), comes before
 * anything of the script is applied.
 */
export async function claimPendingRun(
  db: CommonQueryMethods,
  id: number,
  slotTaken: boolean,
  windowSeen: Record<string, unknown> | undefined,
): Promise<ClaimAnswer | undefined> {
  const row = await db.maybeOne(sql.prepared("task_run.claim", claimRow)`
    with ${commitModeStep(sql.fragment`true`)},
    pause as (select value, value->'enabled' = 'true'::jsonb as enabled from setting where name = 'EMERGENCY_PAUSE' for share),
    ${lockedTaskStep(id, ["PENDING"])},
    facts as (
      select ${gateFactColumns}, p.parallel_tasks_per_rollout > 0 as slot_limited,
             coalesce((select enabled from pause), false) as paused, (select value from pause) as pause,
             (select value from setting where name = 'MAINTENANCE_WINDOW') is distinct from ${windowSeen ? JSON.stringify(windowSeen) : null}::jsonb as window_changed
      ${gateFactsSource} where t.id = (select id from locked_task)),
    started_run as (
      update task_run set state = 'RUNNING', start_time = now(), update_time = now()
      where id = ${id} and state = 'PENDING' and task_id = (select task_id from facts)
        and (select not paused and not window_changed and rollout_state not in ('PAUSED', 'CANCELED') and not plan_check_errors and not database_busy
                    and (not slot_limited or ${slotTaken}) from facts)
      returning task_id),
    started_task as (${runTasksUpdate("started_run", "RUNNING")})
    select f.rollout_state, f.plan_check_errors, f.database_busy, f.slot_limited, f.paused, f.pause, f.window_changed,
           exists (select 1 from started_run) as started
    from facts f, commit_mode`);
  if (!row) return undefined;
  const facts = { rolloutState: row.rollout_state, planCheckErrors: row.plan_check_errors, databaseBusy: row.database_busy };
  return { facts, slotLimited: row.slot_limited, paused: row.paused, pause: row.pause ?? undefined, windowChanged: row.window_changed, started: row.started };
}

export interface RunEnd {
  state: FinalRunState;
  detail: string;
  error: string;
  affectedRows: number;
}

/** The task's new state when its run ends. */
export interface TaskEnd extends TaskChanges {
  state: TaskState;
}

/**
 * Jobs the statement ending a run adds as well: `add` (a query adding them,
 * jobs.store.ts keyedJobsAdding) reads the same snapshot as the end, so it
 * sees the ended run as it was; `statementName` names the whole statement.
 */
export interface JobsOnEnd {
  statementName: string;
  add: FragmentSqlToken;
}

/**
 * PENDING or RUNNING → a final state, its task locked first, and with `task`
 * the task's state and the run's log entries not yet written (and the jobs
 * of `jobsOnEnd`) in the same prepared statement; undefined when the run had
 * already ended (then the task is left as it is). With `jobsOnEnd` (the
 * worker's own end of a run it executed, settle-run.ts) the statement
 * commits without waiting for its WAL flush when the run ran in one
 * transaction (see below).
 */
export async function markRunEnded(
  db: CommonQueryMethods,
  id: number,
  end: RunEnd,
  task?: TaskEnd,
  log: readonly StatementLog[] = [],
  jobsOnEnd?: JobsOnEnd,
): Promise<TaskRunRow | undefined> {
  const ended = sql.fragment`
    with ${lockedTaskStep(id, ["PENDING", "RUNNING"])},
    ended as (
      update task_run set state = ${end.state}, detail = ${end.detail}, error = ${end.error}, affected_rows = ${end.affectedRows},
        end_time = now(), update_time = now()
      where id = ${id} and state in ('PENDING', 'RUNNING') and task_id = (select id from locked_task)
      returning ${taskRunColumns})`;
  if (!task) return (await db.maybeOne(sql.prepared("task_run.mark_ended", taskRunRow)`${ended} select * from ended`)) ?? undefined;
  const withTask = sql.fragment`
      ${ended},
      task_set as (${runTasksUpdate("ended", task.state, task)}),
      logged as (${logEntriesInsert(id, log)})`;
  if (!jobsOnEnd) return (await db.maybeOne(sql.prepared("task_run.mark_ended_with_task", taskRunRow)`${withTask} select * from ended`)) ?? undefined;
  // A run that ran in one transaction ends without waiting for the WAL flush:
  // an end a crash of the store loses is found again by the reconciler,
  // which reads the fate of the transaction its durable session record names.
  return (
    (await db.maybeOne(sql.prepared(jobsOnEnd.statementName, taskRunRow)`
      ${withTask},
      jobs_added as (${jobsOnEnd.add}),
      ${commitModeStep(sql.fragment`(select transactional from task_run where id = ${id})`)}
      select ended.* from ended, lateral (select count(*) from jobs_added) as added, commit_mode`)) ?? undefined
  );
}
