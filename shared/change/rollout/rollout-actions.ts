// What people do to a rollout (contract §12.3): advance a stage, pause,
// resume, and run or skip tasks. Each locks the rollout row, checks the
// state it requires (failed_precondition naming what blocks), changes tasks,
// and lets refreshRollout move the rest. While the emergency pause is on,
// nothing new may start (§12.7).
import type { CommonQueryMethods } from "slonik";
import { failedPrecondition, invalidArgument, notFound, quoted } from "../../platform/index.ts";
import { refuseDuringEmergencyPause, type SettingReader } from "../../governance/index.ts";
import { refreshRollout, startStage } from "../pipeline/progress.ts";
import { parseStageName, parseTaskName, rolloutName, stageName, taskName, type RolloutRef } from "./rollout-names.ts";
import { findRollout, findStages, setRolloutState, type RolloutRow } from "./rollout.store.ts";
import { findTasksById, setTaskState, type TaskRow, type TaskState } from "./task.store.ts";
import { createRuns } from "../pipeline/task-runs.ts";
import { enqueueTaskRuns } from "../task-run/run-jobs.ts";
import { markRunEnded } from "../task-run/store/run-transitions.store.ts";
import { dueRunsOfRollout, findActiveRuns } from "../task-run/store/task-run.store.ts";

const DONE_OR_SKIPPED: ReadonlySet<string> = new Set(["DONE", "SKIPPED"]);

/** The rollout, locked; not_found when it does not exist. */
export async function lockRollout(tx: CommonQueryMethods, ref: RolloutRef): Promise<RolloutRow> {
  const rollout = await findRollout(tx, ref, true);
  if (!rollout) throw notFound(`rollout "${rolloutName(ref)}" does not exist`);
  return rollout;
}

export async function advanceRollout(tx: CommonQueryMethods, settings: SettingReader, ref: RolloutRef, stage: string, actor: string): Promise<void> {
  const { rollout: owner, stageId } = parseStageName(stage, "stage");
  if (rolloutName(owner) !== rolloutName(ref)) throw invalidArgument(`stage: ${quoted(stage)} is not a stage of rollout ${quoted(rolloutName(ref))}`);
  const rollout = await lockRollout(tx, ref);
  if (rollout.state === "PAUSED" || rollout.state === "CANCELED" || rollout.state === "DONE") {
    throw failedPrecondition(`rollout "${rolloutName(ref)}" is ${rollout.state}`);
  }
  await refuseDuringEmergencyPause(settings);
  const stages = await findStages(tx, ref);
  const index = stages.findIndex((s) => s.id === stageId);
  if (index < 0) throw notFound(`stage "${stage}" does not exist`);
  if (stages[index]!.state !== "NOT_STARTED") throw failedPrecondition(`stage "${stage}" is ${stages[index]!.state}, not NOT_STARTED`);
  const blocking = stages.slice(0, index).find((s) => !DONE_OR_SKIPPED.has(s.state));
  if (blocking) throw failedPrecondition(`stage "${stageName(ref, blocking.id)}" is ${blocking.state}; it must be DONE or SKIPPED first`);
  await startStage(tx, rollout, stageId, actor);
  await refreshRollout(tx, ref, actor);
}

export async function pauseRollout(tx: CommonQueryMethods, ref: RolloutRef, actor: string): Promise<void> {
  const rollout = await lockRollout(tx, ref);
  if (rollout.state !== "RUNNING") throw failedPrecondition(`rollout "${rolloutName(ref)}" is ${rollout.state}; only a RUNNING rollout can be paused`);
  await setRolloutState(tx, ref, "PAUSED");
  await refreshRollout(tx, ref, actor);
}

export async function resumeRollout(tx: CommonQueryMethods, settings: SettingReader, ref: RolloutRef, actor: string): Promise<void> {
  const rollout = await lockRollout(tx, ref);
  if (rollout.state !== "PAUSED") throw failedPrecondition(`rollout "${rolloutName(ref)}" is ${rollout.state}; only a PAUSED rollout can be resumed`);
  await refuseDuringEmergencyPause(settings);
  await setRolloutState(tx, ref, "RUNNING");
  await enqueueTaskRuns(tx, await dueRunsOfRollout(tx, ref));
  await refreshRollout(tx, ref, actor);
}

/** Tasks named by the request, all of this rollout, locked; invalid_argument or not_found otherwise. */
async function requestedTasks(tx: CommonQueryMethods, ref: RolloutRef, names: readonly string[]): Promise<TaskRow[]> {
  if (names.length === 0) throw invalidArgument("tasks: name at least one task");
  const ids = names.map((name, i) => {
    const parsed = parseTaskName(name, `tasks[${i}]`);
    if (rolloutName(parsed.rollout) !== rolloutName(ref)) throw invalidArgument(`tasks[${i}]: ${quoted(name)} is not a task of rollout ${quoted(rolloutName(ref))}`);
    return parsed.taskId!;
  });
  const tasks = await findTasksById(tx, ref, ids);
  const missing = ids.find((id) => !tasks.some((t) => t.id === id));
  if (missing !== undefined) throw notFound(`task "${taskName(ref, missing)}" does not exist`);
  return tasks;
}

function requireStates(tasks: readonly TaskRow[], allowed: readonly TaskState[], action: string): void {
  const refused = tasks.find((t) => !allowed.includes(t.state));
  if (refused) throw failedPrecondition(`task "${taskName(refused.rollout, refused.id)}" is ${refused.state}; ${action} needs ${allowed.join(", ")}`);
}

/** Runs or retries tasks (a new run each); returns the new run ids in task order. */
export async function runTasks(
  tx: CommonQueryMethods,
  settings: SettingReader,
  ref: RolloutRef,
  names: readonly string[],
  runAt: Date | undefined,
  actor: string,
): Promise<number[]> {
  const rollout = await lockRollout(tx, ref);
  if (rollout.state === "CANCELED" || rollout.state === "DONE") throw failedPrecondition(`rollout "${rolloutName(ref)}" is ${rollout.state}`);
  await refuseDuringEmergencyPause(settings);
  const tasks = await requestedTasks(tx, ref, names);
  requireStates(tasks, ["NOT_STARTED", "FAILED", "CANCELED"], "running");
  const started = new Set((await findStages(tx, ref)).filter((s) => s.state !== "NOT_STARTED").map((s) => s.id));
  const early = tasks.find((t) => !started.has(t.stageId));
  if (early) throw failedPrecondition(`task "${taskName(ref, early.id)}" is in stage "${stageName(ref, early.stageId)}", which has not started; advance it first`);
  const byName = new Map(tasks.map((t) => [t.id, t]));
  const ordered = names.map((name) => byName.get(parseTaskName(name, "tasks").taskId!)!.id);
  const runIds = await createRuns(tx, ref, [...new Set(ordered)], actor, runAt);
  await refreshRollout(tx, ref, actor);
  return runIds;
}

export async function skipTasks(tx: CommonQueryMethods, ref: RolloutRef, names: readonly string[], reason: string, actor: string): Promise<void> {
  if (!reason.trim()) throw invalidArgument("reason: say why the tasks are skipped");
  const rollout = await lockRollout(tx, ref);
  if (rollout.state === "CANCELED" || rollout.state === "DONE") throw failedPrecondition(`rollout "${rolloutName(ref)}" is ${rollout.state}`);
  const tasks = await requestedTasks(tx, ref, names);
  requireStates(tasks, ["NOT_STARTED", "PENDING", "FAILED", "CANCELED"], "skipping");
  const ids = tasks.map((t) => t.id);
  for (const run of await findActiveRuns(tx, ref, ids)) {
    await markRunEnded(tx, run.id, { state: "CANCELED", detail: `task skipped: ${reason}`, error: "", affectedRows: 0 });
  }
  await setTaskState(tx, ids, "SKIPPED", { skippedReason: reason });
  await refreshRollout(tx, ref, actor);
}
