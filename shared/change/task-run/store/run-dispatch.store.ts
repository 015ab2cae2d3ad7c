// SQL of dispatching task runs (contract §12.4, §12.6): a slot of a rollout
// whose project limits its tasks at once, the jobs of the PENDING runs that
// waited for an ended run's target database or slot, and the reconciler's
// reads and clean-up of runs left without a job. They read runs with their
// tasks, rollouts and projects, and write graphile-worker's jobs (through the
// platform's job statements, except the clean-up of orphaned jobs).
import { sql, type CommonQueryMethods, type FragmentSqlToken } from "slonik";
import { z } from "zod";
import type { ReleaseFileRef } from "../../plan/plan-specs.ts";
import { addKeyedJobsSelected, keyedJobsAdding, ROLLOUT_SLOT_LOCK_CLASS, TASK_RUN_JOB_KEY_PREFIX } from "../../../platform/index.ts";
import type { JobsOnEnd } from "./run-transitions.store.ts";

/** Where a run executes, and what settling it needs. */
export interface RunTarget {
  id: number;
  taskId: number;
  projectId: string;
  rolloutId: string;
  instanceId: string;
  databaseName: string;
  releaseFile: ReleaseFileRef | undefined;
  creator: string;
}

const slotFreeRow = z.object({ free: z.boolean() });

/**
 * In the transaction that claims a run of a rollout whose project limits
 * the tasks it runs at once (parallel_tasks_per_rollout): whether it may run
 * one more. It first waits for the other claims of the rollout to commit (a
 * transaction lock), so that two claims never both take the last slot;
 * without a limit, claims do not wait for each other (and do not call this).
 */
export async function takeRolloutSlot(tx: CommonQueryMethods, runId: number): Promise<boolean> {
  await tx.query(sql.unsafe`
    select pg_advisory_xact_lock(${ROLLOUT_SLOT_LOCK_CLASS}, hashtext(project_id || '/' || rollout_id)) from task_run where id = ${runId}`);
  return tx.oneFirst(sql.type(slotFreeRow)`
    select p.parallel_tasks_per_rollout = 0
      or (select count(*) from task_run x where x.project_id = r.project_id and x.rollout_id = r.rollout_id and x.state = 'RUNNING')
         < p.parallel_tasks_per_rollout as free
    from task_run r join project p on p.id = r.project_id where r.id = ${runId}`);
}

const runId = z.object({ id: z.coerce.number() });

/**
 * Enqueues the jobs of the PENDING runs to dispatch now that a run of this
 * target and rollout ended (one statement, the runs not read first): every
 * run waiting for the target database, and, under a parallel limit, the
 * rollout's oldest runs up to the free slots; none whose batchRun start
 * still lies ahead (its own job is scheduled for then).
 */
export async function dispatchWaitingRuns(db: CommonQueryMethods, ended: RunTarget): Promise<void> {
  await addKeyedJobsSelected(db, "task_run_execution.dispatch_waiting_runs", "taskRun.execute", runJobRows(sql.fragment`
    ${targetWaiters(ended)}
    union
    (select r.id from task_run r
     where ${DUE} and r.project_id = ${ended.projectId} and r.rollout_id = ${ended.rolloutId}
     order by r.id
     limit (select case when p.parallel_tasks_per_rollout = 0 then 0
              else greatest(p.parallel_tasks_per_rollout - (select count(*) from task_run x
                where x.project_id = p.id and x.rollout_id = ${ended.rolloutId} and x.state = 'RUNNING'), 0) end
            from project p where p.id = ${ended.projectId}))`));
}

/**
 * The end statement's dispatch, for a run whose rollout has no parallel
 * limit (markRunEnded's jobsOnEnd): the runs waiting for its target
 * database, read in the end's own snapshot. A run created and claimed
 * within that statement (a window of a fraction of a millisecond) is not
 * seen, and waits for the reconciler's pass over runs left without a job.
 */
export function targetWaitersDispatch(ended: RunTarget): JobsOnEnd {
  return {
    statementName: "task_run_execution.end_dispatching_target_waiters",
    add: keyedJobsAdding("taskRun.execute", runJobRows(targetWaiters(ended))),
  };
}

/** The job rows (jobs.store.ts) of the runs whose ids `runIds` selects (a column `id`), in id order. */
export function runJobRows(runIds: FragmentSqlToken) {
  return sql.fragment`
    select jsonb_build_object('taskRunId', w.id) as payload, ${TASK_RUN_JOB_KEY_PREFIX} || w.id as job_key, w.id as position
    from (${runIds}) as w`;
}

const DUE = sql.fragment`r.state = 'PENDING' and (r.run_at is null or r.run_at <= now())`;

/**
 * The due PENDING runs of the ended run's target database. Its tasks are
 * found first, by their index (the task of a PENDING run is PENDING), and
 * then their runs, by state and task (task_run_active): a plan made while
 * the statistics still miss a new rollout's runs would otherwise go through
 * every PENDING run.
 */
function targetWaiters(ended: RunTarget) {
  return sql.fragment`
    select r.id from task_run r
    where ${DUE} and r.task_id = any(array(
      select t.id from task t
      where t.instance_id = ${ended.instanceId} and t.database_name = ${ended.databaseName} and t.state in ('PENDING', 'RUNNING')))`;
}

const stranded = z.object({ id: z.coerce.number(), run_at: z.coerce.date().nullable() });

/**
 * PENDING runs with no job left (e.g. their dispatch was lost with a crashed
 * process) that could start: their rollout is neither paused nor cancelled,
 * their target database runs nothing, their rollout has a free slot.
 */
export async function findStrandedRuns(db: CommonQueryMethods, limit: number): Promise<{ id: number; runAt: Date | undefined }[]> {
  const rows = await db.any(sql.type(stranded)`
    select r.id, r.run_at from task_run r
    join task t on t.id = r.task_id
    join rollout ro on ro.project_id = r.project_id and ro.id = r.rollout_id
    join project p on p.id = r.project_id
    where r.state = 'PENDING' and ro.state not in ('PAUSED', 'CANCELED')
      and not exists (select 1 from graphile_worker._private_jobs j where j.key = 'taskRun:' || r.id and j.attempts < j.max_attempts)
      and not exists (select 1 from task_run o join task ot on ot.id = o.task_id
                      where o.state = 'RUNNING' and ot.instance_id = t.instance_id and ot.database_name = t.database_name)
      and (p.parallel_tasks_per_rollout = 0
           or (select count(*) from task_run x where x.project_id = r.project_id and x.rollout_id = r.rollout_id and x.state = 'RUNNING')
              < p.parallel_tasks_per_rollout)
    order by r.id limit ${limit}`);
  return rows.map((r) => ({ id: r.id, runAt: r.run_at ?? undefined }));
}

/**
 * Deletes the jobs of runs that nobody executes although their job is
 * locked: locked more than `graceSeconds` ago, and their run is not RUNNING
 * (a run's job is locked for milliseconds unless it executes). Such a job
 * was left by a worker that lost the store while finishing it (a restart of
 * the metadata store): its pool lives on, so its lock would otherwise stand
 * for graphile-worker's 4 hours. Answers the runs whose job went; a PENDING
 * one among them is then dispatched again like any run without a job.
 */
export async function dropOrphanedRunJobs(db: CommonQueryMethods, graceSeconds: number): Promise<number[]> {
  return [
    ...(await db.anyFirst(sql.type(runId)`
      delete from graphile_worker._private_jobs j
      using graphile_worker._private_tasks k, task_run r
      where k.id = j.task_id and k.identifier = 'taskRun.execute'
        and j.locked_at < now() - make_interval(secs => ${graceSeconds})
        and r.id = (j.payload->>'taskRunId')::bigint and r.state <> 'RUNNING'
      returning r.id`)),
  ];
}
