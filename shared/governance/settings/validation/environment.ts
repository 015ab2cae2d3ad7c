// ENVIRONMENT (contract §7.7): the environments in promotion order. What a
// review rule's type and payload mean is checked by the review's own rule
// (changeSettingRules).
import type { EnvironmentSetting } from "../../../gen/svc/store/setting_operations_pb.js";
import { quoted } from "../../../platform/index.ts";
import { checkId, checkUnique, fieldError, requireEnum } from "./checks.ts";

const P = "environment.environments";
const COLOR = /^#[0-9a-fA-F]{6}$/;

export function validateEnvironments(value: EnvironmentSetting): void {
  if (value.environments.length === 0) throw fieldError(P, "needs at least one environment");
  value.environments.forEach((env, i) => {
    checkId(env.id, `${P}[${i}].id`);
    if (!env.title?.trim()) env.title = env.id;
    if (env.color && !COLOR.test(env.color)) throw fieldError(`${P}[${i}].color`, `must be #rrggbb, got ${quoted(env.color)}`);
    requireEnum(env.rolloutPolicy, `${P}[${i}].rolloutPolicy`, "AUTOMATIC, MANUAL");
    for (const [j, rule] of (env.sqlReview?.rules ?? []).entries()) {
      if (!rule.type?.trim()) throw fieldError(`${P}[${i}].sqlReview.rules[${j}].type`, "is required");
      requireEnum(rule.level, `${P}[${i}].sqlReview.rules[${j}].level`, "ERROR, WARNING, DISABLED");
    }
    checkUnique(env.sqlReview?.rules ?? [], (rule) => rule.type, (j) => `${P}[${i}].sqlReview.rules[${j}].type`, "the rule type");
  });
  checkUnique(value.environments, (env) => env.id, (i) => `${P}[${i}].id`, "the id");
}
