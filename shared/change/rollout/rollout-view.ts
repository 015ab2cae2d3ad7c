// A rollout as clients read it (contract §12.1): its stages and tasks, and
// for every PENDING task the reason it has not started (the same start gate
// the worker applies).
import type { CommonQueryMethods } from "slonik";
import { notFound } from "../../platform/index.ts";
import type { SettingReader } from "../../governance/index.ts";
import { waitingReasons } from "../task-run/start-gate.ts";
import { rolloutName, type RolloutRef } from "./rollout-names.ts";
import { findRollout, findStages, listRollouts, type RolloutRow, type StageRow } from "./rollout.store.ts";
import { findTasks, type TaskRow } from "./task.store.ts";

export interface TaskView extends TaskRow {
  /** Why a PENDING task waits; "" otherwise. */
  waitingReason: string;
}

export interface RolloutView {
  rollout: RolloutRow;
  stages: StageRow[];
  tasks: TaskView[];
}

export async function getRolloutView(db: CommonQueryMethods, settings: SettingReader, ref: RolloutRef): Promise<RolloutView> {
  const rollout = await findRollout(db, ref);
  if (!rollout) throw notFound(`rollout "${rolloutName(ref)}" does not exist`);
  return viewOf(db, settings, rollout);
}

export async function listRolloutViews(
  db: CommonQueryMethods,
  settings: SettingReader,
  query: { projectId: string; afterId: number | undefined; limit: number },
): Promise<RolloutView[]> {
  const views: RolloutView[] = [];
  for (const rollout of await listRollouts(db, query)) views.push(await viewOf(db, settings, rollout));
  return views;
}

async function viewOf(db: CommonQueryMethods, settings: SettingReader, rollout: RolloutRow): Promise<RolloutView> {
  // One query at a time: `db` may be the caller's transaction.
  const stages = await findStages(db, rollout);
  const tasks = await findTasks(db, rollout);
  const reasons = await waitingReasons(db, settings, tasks.filter((t) => t.state === "PENDING").map((t) => t.id));
  return { rollout, stages, tasks: tasks.map((task) => ({ ...task, waitingReason: reasons.get(task.id) ?? "" })) };
}
