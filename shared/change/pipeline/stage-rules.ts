// The rules that derive stage and rollout states from their tasks (contract
// §12.2, §18.7), as pure functions of what progress.ts reads:
//
//   stage:   NOT_STARTED ─started─▶ RUNNING ─all tasks DONE/SKIPPED─▶ DONE
//            RUNNING ─a task FAILED, none at work─▶ FAILED (CANCELED likewise); all tasks SKIPPED ─▶ SKIPPED
//   rollout: NOT_STARTED ─a stage started─▶ RUNNING ─every stage DONE/SKIPPED─▶ DONE
//            RUNNING ⇄ PAUSED (people); RUNNING ─a task FAILED, none at work─▶ FAILED (retry or skip: RUNNING again)
//            any but DONE ─cancel─▶ CANCELED, and its unfinished stages with it
import type { RolloutRow, RolloutState, StageRow, StageState } from "../rollout/rollout.store.ts";
import type { TaskState } from "../rollout/task.store.ts";

export const FINISHED: ReadonlySet<string> = new Set(["DONE", "SKIPPED"]);
const ACTIVE: ReadonlySet<string> = new Set(["PENDING", "RUNNING"]);

/** How many tasks are in each state: of one stage, and of each stage by id. */
export type StateCounts = ReadonlyMap<TaskState, number>;
export type StageCounts = ReadonlyMap<string, StateCounts>;

/** The counts once the tasks (each with its stage) have moved to `to`, from `from` when they were counted. */
export function tasksMoved(counts: StageCounts, tasks: readonly { stageId: string }[], to: TaskState, from?: TaskState): StageCounts {
  const moved = new Map([...counts].map(([stageId, states]) => [stageId, new Map(states)]));
  for (const { stageId } of tasks) {
    const states = moved.get(stageId) ?? new Map<TaskState, number>();
    if (from) states.set(from, (states.get(from) ?? 0) - 1);
    states.set(to, (states.get(to) ?? 0) + 1);
    moved.set(stageId, states);
  }
  return moved;
}

export function has(counts: StateCounts | undefined, states: ReadonlySet<string> | string): boolean {
  for (const [state, count] of counts ?? []) if (count > 0 && (typeof states === "string" ? state === states : states.has(state))) return true;
  return false;
}

function only(counts: StateCounts | undefined, states: ReadonlySet<string> | string): boolean {
  for (const [state, count] of counts ?? []) if (count > 0 && !(typeof states === "string" ? state === states : states.has(state))) return false;
  return true;
}

/** The stage's state as its tasks and its rollout (a cancelled one cancels what is unfinished) make it. */
export function stageStateIn(rollout: RolloutRow, stage: StageRow, counts: StageCounts): StageState {
  return rollout.state === "CANCELED" && !FINISHED.has(stage.state) ? "CANCELED" : stageStateOf(stage, counts.get(stage.id));
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

/** The stages that have started (their NOT_STARTED tasks may get runs). */
export function startedStages(stages: readonly StageRow[]): string[] {
  return stages.filter((s) => s.state !== "NOT_STARTED" && s.state !== "SKIPPED").map((s) => s.id);
}

/** The first NOT_STARTED stage after finished ones, when its environment's policy is AUTOMATIC. */
export function nextAutomaticStage(stages: readonly StageRow[], automatic: ReadonlySet<string>): StageRow | undefined {
  const next = stages.find((s) => !FINISHED.has(s.state));
  return next?.state === "NOT_STARTED" && automatic.has(next.id) ? next : undefined;
}

export function rolloutStateOf(current: RolloutState, stages: readonly StageRow[], counts: readonly StateCounts[]): RolloutState {
  if (current === "CANCELED") return "CANCELED";
  if (stages.every((s) => FINISHED.has(s.state))) return "DONE";
  // Once a stage has started the rollout stays RUNNING until every stage is DONE or SKIPPED (§18.7).
  if (current === "NOT_STARTED" && stages.every((s) => s.state === "NOT_STARTED" || s.state === "SKIPPED")) return "NOT_STARTED";
  if (current === "PAUSED") return "PAUSED";
  const failed = counts.some((c) => has(c, "FAILED")) && !counts.some((c) => has(c, ACTIVE));
  return failed ? "FAILED" : "RUNNING";
}
