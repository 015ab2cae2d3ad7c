// ENVIRONMENT's review rules (contract §7.7, §10.4), a rule of the setting's
// write: each configured rule is a rule of the review's catalogue, with a
// payload that rule understands.
import type { EnvironmentSetting } from "../../gen/svc/store/setting_operations_pb.js";
import { invalidArgument } from "../../platform/index.ts";
import { ruleProblem } from "./review.ts";

export function validateReviewRules(value: EnvironmentSetting): void {
  value.environments.forEach((env, i) => {
    for (const [j, rule] of (env.sqlReview?.rules ?? []).entries()) {
      const problem = ruleProblem({ type: rule.type ?? "", payload: rule.payload });
      if (problem) throw invalidArgument(`environment.environments[${i}].sqlReview.rules[${j}].${problem}`);
    }
  });
}
