// Starting and cancelling plan check runs (contract §10.2). A new run cancels
// the plan's running one and enqueues its job under the plan's job key, so
// one plan's checks never run twice at once and a newer run supersedes an
// older one that has not started.
import type { CommonQueryMethods } from "slonik";
import { addJob, failedPrecondition, invalidArgument, notFound, quoted } from "../../platform/index.ts";
import { findPlan } from "../plan/plan.store.ts";
import { cancelRunningRun, findRun, finishRun, insertRun, type CheckRunRow } from "./check-run.store.ts";

export function checkRunName(run: Pick<CheckRunRow, "projectId" | "planId" | "id">): string {
  return `projects/${run.projectId}/plans/${run.planId}/planCheckRuns/${run.id}`;
}

const RUN_NAME = /^projects\/([a-z][a-z0-9-]{0,62})\/plans\/([a-z][a-z0-9-]{0,62}|[1-9][0-9]{0,18})\/planCheckRuns\/([1-9][0-9]{0,15})$/;

export function parseCheckRunName(name: string, field: string): { plan: { projectId: string; id: string }; id: number } {
  const match = RUN_NAME.exec(name);
  if (!match) throw invalidArgument(`${field}: ${quoted(name)} is not a valid plan check run name; use projects/<p>/plans/<plan_id>/planCheckRuns/<run_id>`);
  return { plan: { projectId: match[1]!, id: match[2]! }, id: Number(match[3]) };
}

/** The job key of a plan's check runs. */
export function planCheckJobKey(projectId: string, planId: string): string {
  return `plan.check:${projectId}/${planId}`;
}

/** Concurrent starts for one plan take turns on the plan's row, so each supersedes the one before. */
export async function startCheckRun(tx: CommonQueryMethods, projectId: string, planId: string): Promise<CheckRunRow> {
  await findPlan(tx, projectId, planId, true);
  await cancelRunningRun(tx, projectId, planId, "superseded by a newer run");
  const run = await insertRun(tx, projectId, planId);
  await addJob(tx, "plan.check", { runId: run.id }, { jobKey: planCheckJobKey(projectId, planId), jobKeyMode: "replace" });
  return run;
}

export async function getCheckRun(db: CommonQueryMethods, projectId: string, planId: string, id: number): Promise<CheckRunRow> {
  const run = await findRun(db, projectId, planId, id);
  if (!run) throw notFound(`plan check run "${checkRunName({ projectId, planId, id })}" does not exist`);
  return run;
}

export async function cancelCheckRun(tx: CommonQueryMethods, projectId: string, planId: string, id: number, canceller: string): Promise<CheckRunRow> {
  const run = await getCheckRun(tx, projectId, planId, id);
  if (!(await finishRun(tx, id, "CANCELED", [], `canceled by ${canceller}`))) {
    throw failedPrecondition(`plan check run "${checkRunName(run)}" has already ended (${run.status})`);
  }
  return getCheckRun(tx, projectId, planId, id);
}
