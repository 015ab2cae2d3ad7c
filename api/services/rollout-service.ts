// RolloutService: rollouts, their stages and tasks, and task runs (contract §12).
import { timestampDate } from "@bufbuild/protobuf/wkt";
import { RolloutService } from "../../shared/gen/svc/v1/rollout_service_pb.js";
import { type ChangeFeed, type Db, failedPrecondition, keysetPage, notFound } from "../../shared/platform/index.ts";
import {
  advanceRollout,
  cancelRollout,
  cancelTaskRuns,
  createRollout,
  findLiveIssueOfPlan,
  findTaskRun,
  findTaskRunLog,
  getPlan,
  getRolloutView,
  listRolloutViews,
  listTaskRuns,
  parsePlanName,
  parseRolloutName,
  parseTaskName,
  parseTaskRunName,
  pauseRollout,
  resumeRollout,
  rolloutName,
  type RolloutRef,
  runTasks,
  skipTasks,
  type TaskRunRow,
} from "../../shared/change/index.ts";
import { parseProjectName } from "../../shared/inventory/index.ts";
import type { SettingReader } from "../../shared/governance/index.ts";
import type { CommonQueryMethods } from "slonik";
import { auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";
import { toLogEntry, toRollout, toTaskRun } from "./rollout-convert.ts";
import { rolloutWatchMethods } from "./rollout-watch.ts";

export interface RolloutDeps {
  db: Db;
  settings: SettingReader;
  /** Change notices, for WatchRollout and WatchIssue. */
  changes: ChangeFeed;
}

export function rolloutService(deps: RolloutDeps) {
  const view = async (db: CommonQueryMethods, ref: RolloutRef) => toRollout(await getRolloutView(db, deps.settings, ref));
  return registration(RolloutService, {
    async getRollout(req) {
      return view(deps.db, parseRolloutName(req.name, "name"));
    },
    async listRollouts(req) {
      const projectId = parseProjectName(req.parent, "parent");
      const page = await keysetPage(
        req,
        JSON.stringify({ parent: req.parent }),
        ["integer"],
        (after, limit) => listRolloutViews(deps.db, deps.settings, { projectId, afterId: after ? Number(after[0]) : undefined, limit }),
        (v) => [Number(v.rollout.id)],
      );
      return { rollouts: page.rows.map(toRollout), nextPageToken: page.nextPageToken };
    },
    async createRollout(req, context) {
      const audit = auditScope(context);
      const projectId = parseProjectName(req.parent, "parent");
      const planRef = parsePlanName(req.plan, "plan");
      if (planRef.projectId !== projectId) throw notFound(`plan "${req.plan}" is not a plan of "${req.parent}"`);
      const plan = await getPlan(audit.tx, planRef);
      const issue = await findLiveIssueOfPlan(audit.tx, plan.projectId, plan.id);
      if (issue?.approvalStatus !== "APPROVED" && issue?.approvalStatus !== "SKIPPED") {
        throw failedPrecondition(`plan "${req.plan}" needs an approved issue before its rollout is created`);
      }
      const rollout = await createRollout(audit.tx, { projectId, planId: plan.id, issueId: issue.issueId, creator: callerOf(context).name }, plan);
      audit.resource = rolloutName(rollout);
      return view(audit.tx, rollout);
    },
    async advanceRollout(req, context) {
      const tx = auditScope(context).tx;
      const ref = parseRolloutName(req.name, "name");
      await advanceRollout(tx, deps.settings, ref, req.stage, callerOf(context).name);
      return view(tx, ref);
    },
    async pauseRollout(req, context) {
      const tx = auditScope(context).tx;
      const ref = parseRolloutName(req.name, "name");
      await pauseRollout(tx, ref, callerOf(context).name);
      return view(tx, ref);
    },
    async resumeRollout(req, context) {
      const tx = auditScope(context).tx;
      const ref = parseRolloutName(req.name, "name");
      await resumeRollout(tx, deps.settings, ref, callerOf(context).name);
      return view(tx, ref);
    },
    async cancelRollout(req, context) {
      const tx = auditScope(context).tx;
      const ref = parseRolloutName(req.name, "name");
      await cancelRollout(tx, ref, req.reason, callerOf(context).name);
      return view(tx, ref);
    },
    async batchRunTasks(req, context) {
      const tx = auditScope(context).tx;
      const ref = parseRolloutName(req.parent, "parent");
      const runAt = req.runTime ? timestampDate(req.runTime) : undefined;
      const ids = await runTasks(tx, deps.settings, ref, req.tasks, runAt, callerOf(context).name);
      return { taskRuns: await runsById(tx, ids) };
    },
    async batchSkipTasks(req, context) {
      const tx = auditScope(context).tx;
      const ref = parseRolloutName(req.parent, "parent");
      await skipTasks(tx, ref, req.tasks, req.reason, callerOf(context).name);
      const skipped = new Set(req.tasks);
      return { tasks: (await view(tx, ref)).tasks.filter((t) => skipped.has(t.name)) };
    },
    async batchCancelTaskRuns(req, context) {
      const tx = auditScope(context).tx;
      const ids = await cancelTaskRuns(tx, req.parent, req.taskRuns, req.reason, callerOf(context).name);
      return { taskRuns: await runsById(tx, ids) };
    },
    async listTaskRuns(req) {
      const { rollout, taskId } = parseTaskName(req.parent, "parent", true);
      const page = await keysetPage(
        req,
        JSON.stringify({ parent: req.parent }),
        ["integer"],
        (after, limit) => listTaskRuns(deps.db, { rollout, taskId, afterId: after ? Number(after[0]) : undefined, limit }),
        (run) => [run.id],
      );
      return { taskRuns: page.rows.map((run) => toTaskRun(run)), nextPageToken: page.nextPageToken };
    },
    async getTaskRun(req) {
      const run = await ownRun(deps.db, req.name, "name");
      return toTaskRun(run, await findTaskRunLog(deps.db, run.id));
    },
    async getTaskRunLog(req) {
      const runName = req.name.endsWith("/log") ? req.name.slice(0, -"/log".length) : req.name;
      const run = await ownRun(deps.db, runName, "name");
      return { name: req.name, entries: (await findTaskRunLog(deps.db, run.id)).map(toLogEntry) };
    },
    ...rolloutWatchMethods(deps),
  });
}

/** The run a name gives, when it belongs to the named rollout and task. */
async function ownRun(db: CommonQueryMethods, name: string, field: string): Promise<TaskRunRow> {
  const ref = parseTaskRunName(name, field);
  const run = await findTaskRun(db, ref.runId);
  if (!run || rolloutName(run.rollout) !== rolloutName(ref.rollout) || run.taskId !== ref.taskId) throw notFound(`task run "${name}" does not exist`);
  return run;
}

async function runsById(db: CommonQueryMethods, ids: readonly number[]) {
  const runs: TaskRunRow[] = [];
  for (const id of ids) {
    const run = await findTaskRun(db, id);
    if (run) runs.push(run);
  }
  return runs.map((run) => toTaskRun(run));
}
