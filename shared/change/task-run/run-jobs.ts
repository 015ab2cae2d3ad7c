// A task run's job (contract §12.4): taskRun.execute under the job key
// taskRun:<id>, added in the transaction that makes the run PENDING (or
// that lifts what held it), so dispatch is the job queue's own notification
// at commit, never a polling tick.
import type { CommonQueryMethods } from "slonik";
import { addKeyedJobs, TASK_RUN_JOB_KEY_PREFIX } from "../../platform/index.ts";

/** Enqueues the runs' jobs, replacing a waiting job of the same run; `runAt` schedules them. */
export async function enqueueTaskRuns(tx: CommonQueryMethods, runIds: readonly number[], runAt?: Date): Promise<void> {
  await addKeyedJobs(tx, "taskRun.execute", runIds.map((id) => ({ payload: { taskRunId: id }, jobKey: `${TASK_RUN_JOB_KEY_PREFIX}${id}` })), runAt);
}

export async function enqueueTaskRun(tx: CommonQueryMethods, runId: number, runAt?: Date): Promise<void> {
  await enqueueTaskRuns(tx, [runId], runAt);
}
