// How a rollout moves on (contract §12.2, §12.3, §18.7): stage states follow
// their tasks, the rollout's state follows its stages (stage-rules.ts), the
// next stage of an AUTOMATIC environment starts by itself when everything
// before it is DONE or SKIPPED, ready tasks get their runs, and the issue is
// DONE when the rollout is. Every change to a task ends with refreshRollout,
// in the same transaction. Events: rollout.stageStarted, rollout.done,
// rollout.failed.
import type { CommonQueryMethods, DatabasePool } from "slonik";
import { type Environment, readEnvironments, storedSettings, SYSTEM_ACTOR } from "../../governance/index.ts";
import { noticeChange, withTransaction } from "../../platform/index.ts";
import { addIssueEvent } from "../issue/issue-events.ts";
import { issueName, type IssueRef } from "../issue/issue-names.ts";
import { transitionIssueStatus } from "../issue/issue.store.ts";
import { rolloutName, stageName, type RolloutRef } from "../rollout/rollout-names.ts";
import { findRollout, findRolloutProgress, setRolloutState, setStageState, type RolloutRow, type RolloutState, type StageRow } from "../rollout/rollout.store.ts";
import { findTasks, stageGoesOn, type TaskRow } from "../rollout/task.store.ts";
import { rolloutSubject } from "./event-subjects.ts";
import { emit } from "./events.ts";
import { FINISHED, has, nextAutomaticStage, rolloutStateOf, type StageCounts, stageStateIn, startedStages, tasksMoved } from "./stage-rules.ts";
import { announceRunChange, createRuns } from "./task-runs.ts";

/** Starts a stage; refreshRollout then gives its ready tasks their runs. */
export async function startStage(tx: CommonQueryMethods, rollout: RolloutRow, stageId: string, starter: string): Promise<void> {
  await setStageState(tx, rollout, stageId, "RUNNING");
  const stage = stageName(rollout, stageId);
  if (rollout.issueId) {
    await addIssueEvent(tx, { projectId: rollout.projectId, issueId: rollout.issueId }, { kind: "STAGE_STARTED", stage }, starter, "");
  }
  await emit(tx, { ...rolloutSubject(rollout, stage, starter), event: "rollout.stageStarted", detail: { environment: `environments/${stageId}` } });
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
  if (await needsRefresh(db, ref)) await withTransaction(db, (tx) => refreshRollout(tx, ref, actor));
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

/**
 * What the caller of refreshRollout knows already in its transaction: the
 * rollout, locked, the AUTOMATIC environments, and its stages and task counts
 * when it has just written them.
 */
export interface ReadRollout {
  locked: RolloutRow;
  automatic: Set<string>;
  progress?: { stages: StageRow[]; counts: StageCounts };
}

/** Brings stage and rollout states up to date after task changes, and starts what starts by itself; answers the rollout's state then. */
export async function refreshRollout(tx: CommonQueryMethods, ref: RolloutRef, actor: string, read?: ReadRollout): Promise<RolloutState | undefined> {
  const rollout = read?.locked ?? (await findRollout(tx, ref, true));
  if (!rollout) return undefined;
  const automatic = read?.automatic ?? (await automaticEnvironments(tx));
  let { stages, counts }: { stages: StageRow[]; counts: StageCounts } = read?.progress ?? (await findRolloutProgress(tx, ref))!;
  for (;;) {
    for (const stage of stages) {
      const state = stageStateIn(rollout, stage, counts);
      if (state !== stage.state) {
        await setStageState(tx, ref, stage.id, state);
        stage.state = state;
      }
    }
    const started = rollout.state === "CANCELED" ? [] : await startReadyTasks(tx, rollout, stages, counts, actor);
    if (started.length > 0) {
      counts = tasksMoved(counts, started, "PENDING", "NOT_STARTED"); // concurrent settlements follow up after this commit
      continue;
    }
    const next = rollout.state === "CANCELED" || rollout.state === "PAUSED" ? undefined : nextAutomaticStage(stages, automatic);
    if (next) {
      await startStage(tx, rollout, next.id, actor);
      next.state = "RUNNING"; // nothing else moved: its tasks get their runs in the next round
      continue;
    }
    const state = rolloutStateOf(rollout.state, stages, [...counts.values()]);
    await settleRolloutState(tx, rollout, state, actor);
    return state;
  }
}

async function automaticEnvironments(db: CommonQueryMethods): Promise<Set<string>> {
  return automaticOf(await readEnvironments(storedSettings(db)));
}

/** The ids of the environments whose stages start by themselves. */
export function automaticOf(environments: readonly Environment[]): Set<string> {
  return new Set(environments.filter((e) => e.rolloutPolicy === "AUTOMATIC").map((e) => e.id));
}

async function settleRolloutState(tx: CommonQueryMethods, rollout: RolloutRow, state: RolloutState, actor: string): Promise<void> {
  if (state !== rollout.state) {
    await setRolloutState(tx, rollout, state);
    if (state === "DONE" && rollout.issueId) await finishIssue(tx, { projectId: rollout.projectId, issueId: rollout.issueId });
    if (state === "DONE" || state === "FAILED") {
      await emit(tx, { ...rolloutSubject(rollout, rolloutName(rollout), actor), event: state === "DONE" ? "rollout.done" : "rollout.failed", detail: {} });
    }
  }
  await noticeChange(tx, rolloutName(rollout));
  if (rollout.issueId) await noticeChange(tx, issueName({ projectId: rollout.projectId, issueId: rollout.issueId }));
}

/** The issue's rollout is DONE: OPEN → DONE, final (nothing changes for an issue no longer OPEN). */
async function finishIssue(tx: CommonQueryMethods, ref: IssueRef): Promise<void> {
  const done = await transitionIssueStatus(tx, ref, { from: ["OPEN"], to: "DONE" });
  if (done) await addIssueEvent(tx, ref, { kind: "STATUS_CHANGED", from: "OPEN", to: "DONE" }, SYSTEM_ACTOR);
}

/**
 * Gives a run to every NOT_STARTED task of a started stage whose earlier
 * tasks on the same database are DONE or SKIPPED: one database takes its
 * changes in plan order (a release's versions in version order), and a
 * failed change holds back the ones after it. Answers the tasks given runs.
 */
async function startReadyTasks(tx: CommonQueryMethods, rollout: RolloutRow, stages: readonly StageRow[], counts: StageCounts, actor: string): Promise<TaskRow[]> {
  const started = new Set(startedStages(stages));
  if (![...started].some((id) => has(counts.get(id), "NOT_STARTED"))) return [];
  const blocked = new Set<string>();
  const ready: TaskRow[] = [];
  for (const task of await findTasks(tx, rollout)) {
    const database = `${task.instanceId}/${task.databaseName}`;
    if (task.state === "NOT_STARTED" && started.has(task.stageId) && !blocked.has(database)) ready.push(task);
    if (!FINISHED.has(task.state)) blocked.add(database);
  }
  if (ready.length > 0) await createRuns(tx, rollout, ready.map((task) => task.id), actor);
  return ready;
}
