// The ENVIRONMENT setting as the rest of the service reads it (contract §7.7,
// §9.2): the environments in promotion order, each with its rollout policy
// and the SQL review rules it configures (§10.4).
import { EnvironmentSetting_Rule_Level, EnvironmentSetting_RolloutPolicy } from "../../gen/svc/store/setting_operations_pb.js";
import type { SettingReader } from "./setting-cache.ts";
import { readSetting } from "./setting-value.ts";

export interface ConfiguredRule {
  type: string;
  level: "ERROR" | "WARNING" | "DISABLED";
  payload: Record<string, unknown>;
}

export interface Environment {
  id: string;
  title: string;
  protected: boolean;
  rolloutPolicy: "AUTOMATIC" | "MANUAL";
  /** The rules the environment configures; undefined when it configures none (defaults apply). */
  sqlReviewRules: ConfiguredRule[] | undefined;
}

/** The environments in promotion order. */
export async function readEnvironments(settings: SettingReader): Promise<Environment[]> {
  const value = await readSetting(settings, "ENVIRONMENT");
  return value.environments.map((env) => ({
    id: env.id!,
    title: env.title ?? env.id!,
    protected: env.protected ?? false,
    rolloutPolicy: env.rolloutPolicy === EnvironmentSetting_RolloutPolicy.AUTOMATIC ? "AUTOMATIC" : "MANUAL",
    sqlReviewRules: env.sqlReview?.rules.map((rule) => ({
      type: rule.type!,
      level: rule.level === EnvironmentSetting_Rule_Level.ERROR ? "ERROR" : rule.level === EnvironmentSetting_Rule_Level.WARNING ? "WARNING" : "DISABLED",
      payload: (rule.payload ?? {}) as Record<string, unknown>,
    })),
  }));
}

export function environmentName(id: string): string {
  return `environments/${id}`;
}
