// The plan a new change is writing: saved as a plan (created once, then
// updated with the etag it answered), and its check run waited for. A check
// run has no stream of its own, so its end is read again after growing
// pauses (a run takes seconds; §10.2 caps it at 10 minutes).
import { type Plan, Plan_ChangeDatabaseConfig_Type, PlanService } from "@gen/svc/v1/plan_service_pb.js";
import { type PlanCheckRun, PlanCheckRun_Result_Status, PlanCheckRun_Status, PlanCheckRunService } from "@gen/svc/v1/plan_check_run_service_pb.js";
import { client } from "../../api/clients.ts";
import type { CheckMark } from "./check-marks.ts";

export interface Draft {
  title: string;
  description: string;
  statement: string;
  targets: string[];
  type: Plan_ChangeDatabaseConfig_Type;
}

/** Creates the plan, or updates the one saved before (its one spec keeps its id). */
export async function savePlan(project: string, draft: Draft, saved: Plan | undefined, requestId: string): Promise<Plan> {
  const spec = { id: saved?.specs[0]?.id ?? "", changeDatabaseConfig: { targets: draft.targets, statement: draft.statement, type: draft.type } };
  const plan = { title: draft.title, description: draft.description, specs: [spec] };
  if (!saved) return client(PlanService).createPlan({ parent: `projects/${project}`, plan, requestId });
  return client(PlanService).updatePlan({ plan: { ...plan, name: saved.name, etag: saved.etag }, updateMask: { paths: ["title", "description", "specs"] } });
}

const PAUSES_MS = [200, 300, 500, 800, 1_000];

/** The plan's latest check run once it is no longer RUNNING. */
export async function finishedChecks(planName: string, signal: AbortSignal): Promise<PlanCheckRun | undefined> {
  for (let round = 0; ; round++) {
    const [run] = (await client(PlanCheckRunService).listPlanCheckRuns({ parent: planName, latestOnly: true }, { signal })).planCheckRuns;
    if (!run || run.status !== PlanCheckRun_Status.RUNNING) return run;
    await new Promise((resolve) => setTimeout(resolve, PAUSES_MS[Math.min(round, PAUSES_MS.length - 1)]));
    signal.throwIfAborted();
  }
}

/** The run's results that point into the statement, as marks (successes point nowhere). */
export function marksOf(run: PlanCheckRun | undefined, targetTitle: (target: string) => string): CheckMark[] {
  return (run?.results ?? [])
    .filter((r) => r.line > 0 && (r.status === PlanCheckRun_Result_Status.WARNING || r.status === PlanCheckRun_Result_Status.ERROR))
    .map((r) => ({ line: r.line, column: r.column, severity: r.status === PlanCheckRun_Result_Status.ERROR ? "error" : "warning", message: `${targetTitle(r.target)}: ${r.title}${r.content ? ` — ${r.content}` : ""}` }));
}

export const CHANGE_TYPES = [
  { type: Plan_ChangeDatabaseConfig_Type.MIGRATE, label: "Schema change (DDL)" },
  { type: Plan_ChangeDatabaseConfig_Type.DATA, label: "Data change (DML)" },
] as const;
