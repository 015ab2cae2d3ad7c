// Names of rollouts, stages, tasks and task runs (contract §12.1):
// projects/<p>/rollouts/<r>, …/stages/<environment_id>, …/tasks/<t> (no stage
// segment) and …/tasks/<t>/taskRuns/<id>. Task `-` stands for every task of
// the rollout where a parent allows it.
import { invalidArgument, quoted } from "../../platform/index.ts";
import { projectName } from "../../inventory/index.ts";

export interface RolloutRef {
  projectId: string;
  id: string;
}

const PROJECT = "projects\\/([a-z][a-z0-9-]{0,62})";
const ROLLOUT = `${PROJECT}\\/rollouts\\/([1-9][0-9]{0,18})`;
const ROLLOUT_NAME = new RegExp(`^${ROLLOUT}$`);
const STAGE_NAME = new RegExp(`^${ROLLOUT}\\/stages\\/([a-z][a-z0-9-]{0,62}|-)$`);
const TASK_NAME = new RegExp(`^${ROLLOUT}\\/tasks\\/([1-9][0-9]{0,18}|-)$`);
const TASK_RUN_NAME = new RegExp(`^${ROLLOUT}\\/tasks\\/([1-9][0-9]{0,18})\\/taskRuns\\/([1-9][0-9]{0,18})$`);

export function rolloutName(ref: RolloutRef): string {
  return `${projectName(ref.projectId)}/rollouts/${ref.id}`;
}

export function stageName(ref: RolloutRef, stageId: string): string {
  return `${rolloutName(ref)}/stages/${stageId}`;
}

export function taskName(ref: RolloutRef, taskId: number): string {
  return `${rolloutName(ref)}/tasks/${taskId}`;
}

export function taskRunName(ref: RolloutRef, taskId: number, runId: number): string {
  return `${taskName(ref, taskId)}/taskRuns/${runId}`;
}

export function parseRolloutName(name: string, field: string): RolloutRef {
  const match = ROLLOUT_NAME.exec(name);
  if (!match) throw invalidArgument(`${field}: ${quoted(name)} is not a valid rollout name; use projects/<p>/rollouts/<rollout_id>`);
  return { projectId: match[1]!, id: match[2]! };
}

export function parseStageName(name: string, field: string): { rollout: RolloutRef; stageId: string } {
  const match = STAGE_NAME.exec(name);
  if (!match) throw invalidArgument(`${field}: ${quoted(name)} is not a valid stage name; use projects/<p>/rollouts/<r>/stages/<environment_id>`);
  return { rollout: { projectId: match[1]!, id: match[2]! }, stageId: match[3]! };
}

/** A task name; `taskId` is undefined for `-` (every task) when `allowAny`. */
export function parseTaskName(name: string, field: string, allowAny = false): { rollout: RolloutRef; taskId: number | undefined } {
  const match = TASK_NAME.exec(name);
  if (!match || (match[3] === "-" && !allowAny)) {
    throw invalidArgument(`${field}: ${quoted(name)} is not a valid task name; use projects/<p>/rollouts/<r>/tasks/<task_id>${allowAny ? " (or tasks/-)" : ""}`);
  }
  return { rollout: { projectId: match[1]!, id: match[2]! }, taskId: match[3] === "-" ? undefined : Number(match[3]) };
}

export function parseTaskRunName(name: string, field: string): { rollout: RolloutRef; taskId: number; runId: number } {
  const match = TASK_RUN_NAME.exec(name);
  if (!match) throw invalidArgument(`${field}: ${quoted(name)} is not a valid task run name; use projects/<p>/rollouts/<r>/tasks/<t>/taskRuns/<id>`);
  return { rollout: { projectId: match[1]!, id: match[2]! }, taskId: Number(match[3]), runId: Number(match[4]) };
}

/** Stage `-` holds the targets without an environment. */
export const NO_ENVIRONMENT_STAGE = "-";
