// Executing one plan check run (contract §10.2): every check of every target
// of every spec, within the run's 10-minute limit. The run ends DONE, or
// FAILED when a target could not be checked or the limit passed; a run
// cancelled or superseded meanwhile is left as it is (its results dropped).
// Its work logs under its plan's name, and its end with status and duration.
import { type Db, formatDuration, type Logger, type Metrics, withLogFields, withTransaction } from "../../platform/index.ts";
import { checksFinished } from "../pipeline/checks.ts";
import { planName } from "../plan/plan-names.ts";
import { findPlan } from "../plan/plan.store.ts";
import { effectiveRules } from "../review/review.ts";
import { type Environment, readEnvironments, type SettingReader } from "../../governance/index.ts";
import type { CheckResult } from "./check-result.ts";
import { findRunById, finishRun, isRunRunning, type CheckRunRow } from "./check-run.store.ts";
import { checkRunName } from "./check-runs.ts";
import { checkTarget, preambleOf, type CheckTarget } from "./check-target.ts";

export interface CheckRunDeps {
  db: Db;
  settings: SettingReader;
  metrics: Metrics;
  logger: Logger;
  /** The database a target name refers to, with its connection (throws DomainError when it cannot be used). */
  resolveTarget(name: string): Promise<CheckTarget>;
  /** The run's limit; 10 minutes unless a test says otherwise. */
  timeLimitMs?: number;
}

const TIME_LIMIT_MS = 10 * 60 * 1000;

export async function executeCheckRun(deps: CheckRunDeps, runId: number): Promise<void> {
  const run = await findRunById(deps.db, runId);
  if (run?.status !== "RUNNING") return;
  await withLogFields({ plan: planName({ projectId: run.projectId, id: run.planId }) }, () => checkWithinLimit(deps, run));
}

async function checkWithinLimit(deps: CheckRunDeps, run: CheckRunRow): Promise<void> {
  const started = performance.now();
  const limitMs = deps.timeLimitMs ?? TIME_LIMIT_MS;
  let timer: NodeJS.Timeout | undefined;
  const limit = new Promise<Outcome>((resolve) => {
    timer = setTimeout(() => resolve({ results: [], failure: `the run exceeded its limit of ${formatDuration(limitMs)}` }), limitMs);
  });
  try {
    const outcome = await Promise.race([checkAll(deps, run), limit]);
    const status = outcome.failure ? "FAILED" : "DONE";
    const finished = outcome.canceled ? false : await finishAndApprove(deps.db, run, status, outcome);
    const seconds = (performance.now() - started) / 1000;
    const ended = { status: finished ? status : "CANCELED", duration_ms: Math.round(seconds * 1000) };
    deps.metrics.planCheckRunDuration.observe({ status: ended.status }, seconds);
    deps.logger.info({ ...ended, plan_check_run: checkRunName(run), results: outcome.results.length, failure: outcome.failure }, "plan check run ended");
  } finally {
    clearTimeout(timer);
  }
}

/**
 * Ends the run and, in the same transaction, gives the plan's issue waiting
 * for these checks its approval (contract §11.2). The plan is locked first,
 * as every writer of its runs and issue does.
 */
async function finishAndApprove(db: Db, run: CheckRunRow, status: "DONE" | "FAILED", outcome: Outcome): Promise<boolean> {
  return withTransaction(db, async (tx) => {
    await findPlan(tx, run.projectId, run.planId, true);
    const finished = await finishRun(tx, run.id, status, outcome.results, outcome.failure ?? "");
    if (finished) await checksFinished(tx, { projectId: run.projectId, id: run.planId });
    return finished;
  });
}

interface Outcome {
  results: CheckResult[];
  failure?: string;
  canceled?: boolean;
}

async function checkAll(deps: CheckRunDeps, run: CheckRunRow): Promise<Outcome> {
  const plan = await findPlan(deps.db, run.projectId, run.planId);
  if (!plan) return { results: [], failure: "the plan no longer exists" };
  const environments = await readEnvironments(deps.settings);
  const results: CheckResult[] = [];
  const failures: string[] = [];
  // Specs apply in order, so a target's dry run of a spec builds on its earlier specs.
  const earlier = new Map<string, string[]>();
  for (const spec of plan.specs) {
    for (const name of spec.targets) {
      if (!(await isRunRunning(deps.db, run.id))) return { results, canceled: true };
      const preamble = preambleOf(earlier.get(name) ?? []);
      earlier.set(name, [...(earlier.get(name) ?? []), spec.statement]);
      const outcome = await checkResolved(deps, name, (target) => checkTarget(target, spec, rulesOf(environments, target.environmentId), preamble));
      results.push(...outcome.results.map((r) => ({ ...r, specId: spec.id })));
      if (outcome.failure) failures.push(outcome.failure);
    }
  }
  return { results, failure: failures.length > 0 ? failures.join("; ") : undefined };
}

async function checkResolved(deps: CheckRunDeps, name: string, check: (target: CheckTarget) => Promise<Outcome>): Promise<Outcome> {
  let target: CheckTarget;
  try {
    target = await deps.resolveTarget(name);
  } catch (error) {
    const failure = `${name}: ${error instanceof Error ? error.message : String(error)}`;
    deps.logger.warn({ target: name, error }, "plan check target unavailable");
    const result: CheckResult = {
      type: "DRY_RUN", target: name, specId: "", status: "ERROR", title: "Target unavailable", content: failure, code: "target-unavailable", line: 0, column: 0,
    };
    return { results: [result], failure };
  }
  return check(target);
}

function rulesOf(environments: readonly Environment[], environmentId: string) {
  return effectiveRules(environmentId, environments.find((e) => e.id === environmentId)?.sqlReviewRules);
}
