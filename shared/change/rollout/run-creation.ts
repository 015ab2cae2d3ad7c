// Creating PENDING task runs (contract §12.4): each run and its job are
// written in one transaction, so dispatch is the job queue's own
// notification at commit, never a polling tick.
import type { CommonQueryMethods } from "slonik";
import { TASK_RUN_JOB_KEY_PREFIX } from "../../platform/jobs/catalog.ts";
import { addKeyedJobs } from "../../platform/jobs/jobs.store.ts";
import type { RolloutRef } from "./rollout-names.ts";
import { setTaskState } from "./task.store.ts";
import { insertPendingRuns } from "../task-run/store/task-run.store.ts";

/** Enqueues the runs' jobs (job key taskRun:<id>, replacing a waiting job of the same run). */
export async function enqueueTaskRuns(tx: CommonQueryMethods, runIds: readonly number[], runAt?: Date): Promise<void> {
  await addKeyedJobs(tx, "taskRun.execute", runIds.map((id) => ({ payload: { taskRunId: id }, jobKey: `${TASK_RUN_JOB_KEY_PREFIX}${id}` })), runAt);
}

export async function enqueueTaskRun(tx: CommonQueryMethods, runId: number, runAt?: Date): Promise<void> {
  await enqueueTaskRuns(tx, [runId], runAt);
}

/** New PENDING runs for the tasks (each from its next statement), their tasks PENDING, their jobs enqueued. */
export async function createRuns(tx: CommonQueryMethods, ref: RolloutRef, taskIds: readonly number[], creator: string, runAt?: Date): Promise<number[]> {
  const runIds = await insertPendingRuns(tx, ref, taskIds, creator, runAt);
  await setTaskState(tx, taskIds, "PENDING");
  await enqueueTaskRuns(tx, runIds, runAt);
  return runIds;
}
