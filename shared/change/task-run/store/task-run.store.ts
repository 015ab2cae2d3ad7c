// SQL on task_run (contract §12.1, §12.2): the row, new PENDING runs, and
// reads of runs. A run's moves are run-transitions.store.ts, its execution
// run-execution.store.ts, its dispatch run-dispatch.store.ts: this folder
// writes task_run and task_run_log, and nothing else does.
import { sql, type CommonQueryMethods } from "slonik";
import { z } from "zod";
import { keyedJobsAdding, serialIdRow } from "../../../platform/index.ts";
import type { RolloutRef } from "../../rollout/rollout-names.ts";
import { runTasksUpdate } from "../../rollout/task.store.ts";
import { runJobRows } from "./run-dispatch.store.ts";

export const TASK_RUN_STATES = ["PENDING", "RUNNING", "DONE", "FAILED", "CANCELED"] as const;
export type TaskRunState = (typeof TASK_RUN_STATES)[number];
export type FinalRunState = "DONE" | "FAILED" | "CANCELED";

export const taskRunRow = z
  .object({
    id: z.coerce.number(),
    task_id: z.coerce.number(),
    project_id: z.string(),
    rollout_id: z.string(),
    state: z.enum(TASK_RUN_STATES),
    creator: z.string(),
    first_statement: z.number(),
    cancel_reason: z.string().nullable(),
    detail: z.string(),
    error: z.string(),
    affected_rows: z.coerce.number(),
    run_at: z.coerce.date().nullable(),
    create_time: z.coerce.date(),
    start_time: z.coerce.date().nullable(),
    end_time: z.coerce.date().nullable(),
  })
  .transform((r) => ({
    id: r.id,
    taskId: r.task_id,
    rollout: { projectId: r.project_id, id: r.rollout_id } as RolloutRef,
    state: r.state,
    creator: r.creator,
    firstStatement: r.first_statement,
    cancelReason: r.cancel_reason ?? undefined,
    detail: r.detail,
    error: r.error,
    affectedRows: r.affected_rows,
    runAt: r.run_at ?? undefined,
    createTime: r.create_time,
    startTime: r.start_time ?? undefined,
    endTime: r.end_time ?? undefined,
  }));

export type TaskRunRow = z.infer<typeof taskRunRow>;

export const taskRunColumns = sql.fragment`
  id, task_id, project_id, rollout_id, state, creator, first_statement, cancel_reason, detail, error, affected_rows,
  run_at, create_time, start_time, end_time`;

/**
 * New PENDING runs, one per task (starting at the task's next statement),
 * their tasks PENDING and the runs' jobs added (`runAt` schedules them): one
 * statement. Answers the runs' ids in task order.
 */
export async function insertPendingRuns(
  db: CommonQueryMethods,
  ref: RolloutRef,
  taskIds: readonly number[],
  creator: string,
  runAt: Date | undefined,
): Promise<number[]> {
  if (taskIds.length === 0) return [];
  const ids = await db.anyFirst(sql.type(serialIdRow)`
    with runs as (
      insert into task_run (task_id, project_id, rollout_id, creator, first_statement, run_at)
      select t.id, ${ref.projectId}, ${ref.id}, ${creator}, t.next_statement, ${runAt ? sql.timestamp(runAt) : null}
      from unnest(${sql.array(taskIds, "int8")}) with ordinality as wanted (id, position)
      join task t on t.id = wanted.id
      order by wanted.position
      returning id, task_id),
    pending_tasks as (${runTasksUpdate("runs", "PENDING")}),
    jobs_added as (${keyedJobsAdding("taskRun.execute", runJobRows(sql.fragment`select id from runs`), runAt)})
    select runs.id from runs, lateral (select count(*) from jobs_added) as added order by runs.id`);
  return [...ids];
}

export async function findTaskRun(db: CommonQueryMethods, id: number): Promise<TaskRunRow | undefined> {
  return (await db.maybeOne(sql.type(taskRunRow)`select ${taskRunColumns} from task_run where id = ${id}`)) ?? undefined;
}

/** The named runs of a rollout. */
export async function findTaskRunsById(db: CommonQueryMethods, ref: RolloutRef, ids: readonly number[]): Promise<TaskRunRow[]> {
  return [
    ...(await db.any(sql.type(taskRunRow)`
      select ${taskRunColumns} from task_run
      where project_id = ${ref.projectId} and rollout_id = ${ref.id} and id = any(${sql.array(ids, "int8")})
      order by id`)),
  ];
}

/** The PENDING and RUNNING runs of the rollout (or of some of its tasks). */
export async function findActiveRuns(db: CommonQueryMethods, ref: RolloutRef, taskIds?: readonly number[]): Promise<TaskRunRow[]> {
  const tasks = taskIds ? sql.fragment`and task_id = any(${sql.array(taskIds, "int8")})` : sql.fragment``;
  return [
    ...(await db.any(sql.type(taskRunRow)`
      select ${taskRunColumns} from task_run
      where project_id = ${ref.projectId} and rollout_id = ${ref.id} and state in ('PENDING', 'RUNNING') ${tasks}
      order by id`)),
  ];
}

/** Runs of the rollout newest first (of one task, or of all), after the keyset id. */
export async function listTaskRuns(
  db: CommonQueryMethods,
  query: { rollout: RolloutRef; taskId: number | undefined; afterId: number | undefined; limit: number },
): Promise<readonly TaskRunRow[]> {
  const conditions = [sql.fragment`project_id = ${query.rollout.projectId}`, sql.fragment`rollout_id = ${query.rollout.id}`];
  if (query.taskId !== undefined) conditions.push(sql.fragment`task_id = ${query.taskId}`);
  if (query.afterId !== undefined) conditions.push(sql.fragment`id < ${query.afterId}`);
  return db.any(sql.type(taskRunRow)`
    select ${taskRunColumns} from task_run where ${sql.join(conditions, sql.fragment` and `)} order by id desc limit ${query.limit}`);
}

const runId = z.object({ id: z.coerce.number() });

/** PENDING runs of one rollout that are due (no batchRun start still ahead), oldest first. */
export async function dueRunsOfRollout(db: CommonQueryMethods, ref: RolloutRef): Promise<number[]> {
  return [
    ...(await db.anyFirst(sql.type(runId)`
      select id from task_run
      where project_id = ${ref.projectId} and rollout_id = ${ref.id} and state = 'PENDING' and (run_at is null or run_at <= now())
      order by id`)),
  ];
}

/** Every RUNNING task run of the workspace. */
export async function runningRunIds(db: CommonQueryMethods): Promise<number[]> {
  return [...(await db.anyFirst(sql.type(runId)`select id from task_run where state = 'RUNNING' order by id`))];
}

const pendingRun = z.object({ id: z.coerce.number(), run_at: z.coerce.date().nullable() });

/** Every PENDING task run of the workspace with its requested earliest start (batchRun's run time), oldest first. */
export async function pendingRunStarts(db: CommonQueryMethods): Promise<{ id: number; runAt: Date | undefined }[]> {
  const rows = await db.any(sql.type(pendingRun)`select id, run_at from task_run where state = 'PENDING' order by id`);
  return rows.map((r) => ({ id: r.id, runAt: r.run_at ?? undefined }));
}
