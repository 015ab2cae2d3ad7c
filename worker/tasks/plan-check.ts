// plan.check: executes one plan check run (contract §10.2).
import type { Task } from "graphile-worker";
import { parseJobPayload } from "../../shared/platform/index.ts";
import { executeCheckRun, targetResolver } from "../../shared/change/index.ts";
import { storedSettings } from "../../shared/governance/index.ts";
import type { TaskDeps } from "../task-list.ts";

export function planCheckTask(deps: TaskDeps): Task {
  const settings = storedSettings(deps.db);
  return async (raw) => {
    const { runId } = parseJobPayload("plan.check", raw);
    await executeCheckRun(
      { db: deps.db, settings, metrics: deps.metrics, logger: deps.logger, resolveTarget: targetResolver(deps.db, deps.secrets) },
      runId,
    );
  };
}
