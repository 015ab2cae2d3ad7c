// taskRun.execute: executes one task run (contract §12.4–§12.6).
import type { Task } from "graphile-worker";
import { parseJobPayload } from "../../shared/platform/index.ts";
import { executeTaskRun, type ExecutionDeps } from "../../shared/change/index.ts";

export function taskRunExecuteTask(deps: ExecutionDeps): Task {
  return async (raw) => {
    const { taskRunId } = parseJobPayload("taskRun.execute", raw);
    await executeTaskRun(deps, taskRunId);
  };
}
