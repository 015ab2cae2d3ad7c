// The plan an issue carries, read-only: for each target database, the
// statements its specs run there, and what the latest check run said about
// them (contract §10.2, §10.3).
import { type Plan, PlanService } from "@gen/svc/v1/plan_service_pb.js";
import { type PlanCheckRun, PlanCheckRun_Status, PlanCheckRunService } from "@gen/svc/v1/plan_check_run_service_pb.js";
import { client } from "../../api/clients.ts";
import { FormError } from "../../components/alert.tsx";
import { Loading } from "../../components/loading.tsx";
import { type Loaded, useLoad } from "../../hooks/use-load.ts";
import { CheckResults } from "../changes/check-results.tsx";
import { targetsOf } from "../changes/plan-targets.ts";

/** `checksVersion` changes when the checks may have finished again (the approval status moved). */
export function PlanView({ planName, checksVersion }: { planName: string; checksVersion: string }) {
  const plan = useLoad((signal) => client(PlanService).getPlan({ name: planName }, { signal }), [planName]);
  const checks = useLoad(
    async (signal) => (await client(PlanCheckRunService).listPlanCheckRuns({ parent: planName, latestOnly: true }, { signal })).planCheckRuns[0],
    [planName, checksVersion],
  );
  if (plan.status === "loading") return <Loading />;
  if (plan.status === "failed") return <FormError message={plan.message} />;
  return (
    <>
      <CheckRunState checks={checks} />
      <PlanTargets plan={plan.value} run={checks.status === "done" ? checks.value : undefined} />
    </>
  );
}

function CheckRunState({ checks }: { checks: Loaded<PlanCheckRun | undefined> }) {
  if (checks.status === "loading") return <Loading label="Reading the plan's checks…" />;
  if (checks.status === "failed") return <FormError message={checks.message} />;
  const run = checks.value;
  if (!run) return <p className="empty">The plan has not been checked.</p>;
  const label = PlanCheckRun_Status[run.status];
  return (
    <p>
      Checks: <span className={`badge check-run-${label.toLowerCase()}`}>{label}</span>
      {run.error && <span className="check-error"> {run.error}</span>}
    </p>
  );
}

function PlanTargets({ plan, run }: { plan: Plan; run: PlanCheckRun | undefined }) {
  return (
    <div className="plan-targets">
      {targetsOf(plan).map(({ target, specs }) => (
        <section key={target} className="plan-target" aria-label={`Changes on ${target}`}>
          <h3 className="target-name">{target}</h3>
          {specs.map((spec) => (
            <div key={spec.id} className="plan-spec">
              <pre className="statement" tabIndex={0} aria-label={`Statement of spec ${spec.id}`}>
                <code>{spec.changeDatabaseConfig?.statement}</code>
              </pre>
              <CheckResults results={run?.results.filter((r) => r.target === target && r.specId === spec.id) ?? []} />
            </div>
          ))}
        </section>
      ))}
    </div>
  );
}
