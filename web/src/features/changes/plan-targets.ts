// A plan seen from its databases: for each target, the specs that change it,
// in plan order (a spec names its targets, §10.1).
import type { Plan, Plan_Spec } from "@gen/svc/v1/plan_service_pb.js";

export function targetsOf(plan: Pick<Plan, "specs">): { target: string; specs: Plan_Spec[] }[] {
  const byTarget = new Map<string, Plan_Spec[]>();
  for (const spec of plan.specs) {
    for (const target of spec.changeDatabaseConfig?.targets ?? []) {
      const specs = byTarget.get(target) ?? [];
      specs.push(spec);
      byTarget.set(target, specs);
    }
  }
  return [...byTarget].map(([target, specs]) => ({ target, specs }));
}
