// How a rollout moves on (contract §12.2, §12.3, §18.7): stage states follow
// their tasks, the rollout's state follows its stages, the next stage of an
// AUTOMATIC environment starts by itself when everything before it is DONE or
// SKIPPED, and the issue is DONE when the rollout is. Every change to a task
// ends with refreshRollout, in the same transaction.
import type { CommonQueryMethods, DatabasePool } from "slonik";
import { markIssueDone } from "../issue/issue-status.ts";
import { addIssueEvent } from "../issue/issue-events.ts";
import { issueName } from "../issue/issue-names.ts";
import { storedSettings } from "../../governance/settings/setting-cache.ts";
import { readEnvironments } from "../../governance/settings/environments.ts";
import { noticeChange } from "../../platform/watch/change-notice.store.ts";
import { rolloutName, stageName, type RolloutRef } from "./rollout-names.ts";
import {
  findRollout,
  findRolloutProgress,
  setRolloutState,
  setStageState,
  type RolloutRow,
  type RolloutState,
  type StageRow,
  type StageState,
} from "./rollout.store.ts";
import { findTasks, stageGoesOn, type TaskState } from "./task.store.ts";
import { createRuns } from "./run-creation.ts";
import { announceRunChange } from "./task-run-lifecycle.ts";

const FINISHED: ReadonlySet<string> = new Set(["DONE", "SKIPPED"]);
const ACTIVE: ReadonlySet<string> = new Set(["PENDING", "RUNNING"]);

/** Starts a stage; refreshRollout then gives its ready tasks their runs. */
export async function startStage(tx: CommonQueryMethods, rollout: RolloutRow, stageId: string, starter: string): Promise<void> {
  await setStageState(tx, rollout, stageId, "RUNNING");
  if (rollout.issueId) {
    await addIssueEvent(tx, { projectId: rollout.projectId, issueId: rollout.issueId }, { kind: "STAGE_STARTED", stage: stageName(rollout, stageId) }, starter, "");
  }
}

/**
 * After settlements committed: announces the change to watchers, and brings
 * the rollout up to date when its tasks call for it. Most settlements change
 * nothing above their task and take no lock here: after runs' ends, the
 * stages of their tasks (`settledStageIds`) going on as they are is read
 * without counting the rollout's tasks. A stage whose last task ended, a
 * failure, or a task that may now start takes the rollout's lock and
 * refreshes. Each settlement is followed up after its own commit, so the last
 * of concurrent ones sees every other's end.
 */
export async function followUpRollout(db: DatabasePool, ref: RolloutRef, actor: string, settledStageIds: readonly string[] = []): Promise<void> {
  await announceRunChange(db, ref);
  if (settledStageIds.length > 0 && (await allGoOn(db, ref, settledStageIds))) return;
  if (await needsRefresh(db, ref)) await db.transaction((tx) => refreshRollout(tx, ref, actor));
}

async function allGoOn(db: CommonQueryMethods, ref: RolloutRef, stageIds: readonly string[]): Promise<boolean> {
  for (const stageId of new Set(stageIds)) if (!(await stageGoesOn(db, ref, stageId))) return false;
  return true;
}

async function needsRefresh(db: CommonQueryMethods, ref: RolloutRef): Promise<boolean> {
  const progress = await findRolloutProgress(db, ref);
  if (!progress || progress.rollout.state === "DONE") return false;
  const { rollout, stages, counts } = progress;
  if (stages.some((stage) => stageStateIn(rollout, stage, counts) !== stage.state)) return true;
  if (startedStages(stages).some((id) => has(counts.get(id), "NOT_STARTED"))) return true;
  const waiting = rollout.state !== "CANCELED" && rollout.state !== "PAUSED" && stages.find((s) => !FINISHED.has(s.state))?.state === "NOT_STARTED";
  if (waiting && nextAutomaticStage(stages, await automaticEnvironments(db))) return true;
  return rolloutStateOf(rollout.state, stages, [...counts.values()]) !== rollout.state;
}

/** Brings stage and rollout states up to date after task changes, and starts what starts by itself. */
export async function refreshRollout(tx: CommonQueryMethods, ref: RolloutRef, actor: string): Promise<void> {
  const rollout = await findRollout(tx, ref, true);
  if (!rollout) return;
  const automatic = await automaticEnvironments(tx);
  for (;;) {
    const { stages, counts } = (await findRolloutProgress(tx, ref))!;
    for (const stage of stages) {
      const state = stageStateIn(rollout, stage, counts);
      if (state !== stage.state) {
        await setStageState(tx, ref, stage.id, state);
        stage.state = state;
      }
    }
    if (rollout.state !== "CANCELED" && (await startReadyTasks(tx, rollout, stages, counts, actor))) continue;
    const next = rollout.state === "CANCELED" || rollout.state === "PAUSED" ? undefined : nextAutomaticStage(stages, automatic);
    if (next) {
      await startStage(tx, rollout, next.id, actor);
      continue;
    }
    await settleRolloutState(tx, rollout, rolloutStateOf(rollout.state, stages, [...counts.values()]));
    return;
  }
}

async function automaticEnvironments(db: CommonQueryMethods): Promise<Set<string>> {
  const environments = await readEnvironments(storedSettings(db));
  return new Set(environments.filter((e) => e.rolloutPolicy === "AUTOMATIC").map((e) => e.id));
}

function stageStateIn(rollout: RolloutRow, stage: StageRow, counts: StageCounts): StageState {
  return rollout.state === "CANCELED" && !FINISHED.has(stage.state) ? "CANCELED" : stageStateOf(stage, counts.get(stage.id));
}

function startedStages(stages: readonly StageRow[]): string[] {
  return stages.filter((s) => s.state !== "NOT_STARTED" && s.state !== "SKIPPED").map((s) => s.id);
}

async function settleRolloutState(tx: CommonQueryMethods, rollout: RolloutRow, state: RolloutState): Promise<void> {
  if (state !== rollout.state) {
    await setRolloutState(tx, rollout, state);
    if (state === "DONE" && rollout.issueId) await markIssueDone(tx, { projectId: rollout.projectId, issueId: rollout.issueId });
  }
  await noticeChange(tx, rolloutName(rollout));
  if (rollout.issueId) await noticeChange(tx, issueName({ projectId: rollout.projectId, issueId: rollout.issueId }));
}

/**
 * Gives a run to every NOT_STARTED task of a started stage whose earlier
 * tasks on the same database are DONE or SKIPPED: one database takes its
 * changes in plan order (a release's versions in version order), and a
 * failed change holds back the ones after it. True when runs were created.
 */
async function startReadyTasks(tx: CommonQueryMethods, rollout: RolloutRow, stages: readonly StageRow[], counts: StageCounts, actor: string): Promise<boolean> {
  const started = new Set(startedStages(stages));
  if (![...started].some((id) => has(counts.get(id), "NOT_STARTED"))) return false;
  const blocked = new Set<string>();
  const ready: number[] = [];
  for (const task of await findTasks(tx, rollout)) {
    const database = `${task.instanceId}/${task.databaseName}`;
    if (task.state === "NOT_STARTED" && started.has(task.stageId) && !blocked.has(database)) ready.push(task.id);
    if (!FINISHED.has(task.state)) blocked.add(database);
  }
  if (ready.length === 0) return false;
  await createRuns(tx, rollout, ready, actor);
  return true;
}

type StateCounts = ReadonlyMap<TaskState, number>;
type StageCounts = ReadonlyMap<string, StateCounts>;

function has(counts: StateCounts | undefined, states: ReadonlySet<string> | string): boolean {
  for (const [state, count] of counts ?? []) if (count > 0 && (typeof states === "string" ? state === states : states.has(state))) return true;
  return false;
}

function only(counts: StateCounts | undefined, states: ReadonlySet<string> | string): boolean {
  for (const [state, count] of counts ?? []) if (count > 0 && !(typeof states === "string" ? state === states : states.has(state))) return false;
  return true;
}

function stageStateOf(stage: StageRow, counts: StateCounts | undefined): StageState {
  if (has(counts, "SKIPPED") && only(counts, "SKIPPED")) return "SKIPPED";
  if (stage.state === "NOT_STARTED") return "NOT_STARTED";
  if (only(counts, FINISHED)) return "DONE";
  if (has(counts, ACTIVE)) return "RUNNING";
  if (has(counts, "FAILED")) return "FAILED";
  if (has(counts, "CANCELED")) return "CANCELED";
  return "RUNNING";
}

/** The first NOT_STARTED stage after finished ones, when its environment's policy is AUTOMATIC. */
function nextAutomaticStage(stages: readonly StageRow[], automatic: ReadonlySet<string>): StageRow | undefined {
  const next = stages.find((s) => !FINISHED.has(s.state));
  return next?.state === "NOT_STARTED" && automatic.has(next.id) ? next : undefined;
}

function rolloutStateOf(current: RolloutState, stages: readonly StageRow[], counts: readonly StateCounts[]): RolloutState {
  if (current === "CANCELED") return "CANCELED";
  if (stages.every((s) => FINISHED.has(s.state))) return "DONE";
  // Once a stage has started the rollout stays RUNNING until every stage is DONE or SKIPPED (§18.7).
  if (current === "NOT_STARTED" && stages.every((s) => s.state === "NOT_STARTED" || s.state === "SKIPPED")) return "NOT_STARTED";
  if (current === "PAUSED") return "PAUSED";
  const failed = counts.some((c) => has(c, "FAILED")) && !counts.some((c) => has(c, ACTIVE));
  return failed ? "FAILED" : "RUNNING";
}

