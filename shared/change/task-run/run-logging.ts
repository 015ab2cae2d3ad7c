// What a task run's execution writes to the operational log (contract
// §15.5): its resources under the contract's names on every line of its
// work, a line per statement with its duration and rows (never its text,
// which may hold data or credentials; the task run log keeps it for those
// who may read it), and a line for its start and its end.
import { type LogFields, type Logger } from "../../platform/index.ts";
import { instanceName, type StatementLog } from "../../inventory/index.ts";
import { issueName } from "../issue/issue-names.ts";
import { planName } from "../plan/plan-names.ts";
import type { RunOutcome } from "../pipeline/task-runs.ts";
import { rolloutName, taskName, taskRunName } from "../rollout/rollout-names.ts";
import type { ExecutableRun } from "./run-locks.store.ts";

export function runLogFields(run: ExecutableRun): LogFields {
  const rollout = { projectId: run.projectId, id: run.rolloutId };
  return {
    task_run: taskRunName(rollout, run.taskId, run.id),
    task: taskName(rollout, run.taskId),
    rollout: rolloutName(rollout),
    plan: planName({ projectId: run.projectId, id: run.planId }),
    issue: run.issueId === undefined ? undefined : issueName({ projectId: run.projectId, issueId: run.issueId }),
    instance: instanceName(run.instanceId),
    actor: run.creator,
  };
}

export function logRunStart(logger: Logger, run: ExecutableRun): void {
  logger.info({ database: run.databaseName, first_statement: run.firstStatement + 1 }, "task run started");
}

/** Statements are numbered from 1, as the run's detail counts them. */
export function logStatement(logger: Logger, entry: StatementLog): void {
  const fields = { statement_number: entry.index + 1, duration_ms: round(entry.durationMs), rows_affected: entry.rowsAffected };
  if (entry.error) logger.warn({ ...fields, error: entry.error }, "statement failed");
  else logger.info(fields, "statement executed");
}

export function logRunEnd(logger: Logger, outcome: RunOutcome, startedAt: number): void {
  const fields = { state: outcome.state, detail: outcome.detail, duration_ms: round(performance.now() - startedAt), rows_affected: outcome.affectedRows ?? 0 };
  if (outcome.state === "FAILED") logger.warn({ ...fields, error: outcome.error }, "task run ended");
  else logger.info(fields, "task run ended");
}

function round(ms: number): number {
  return Math.round(ms * 1000) / 1000;
}
