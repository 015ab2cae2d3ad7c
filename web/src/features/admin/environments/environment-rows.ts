// The ENVIRONMENT setting (contract §7.7) as the page edits it: the
// environments in promotion order, each with its SQL review rules (§10.4).
// An environment read keeps its id (renaming would be removing it); a rule's
// payload goes back as read.
import type { JsonObject } from "@bufbuild/protobuf";
import { EnvironmentSetting_RolloutPolicy, EnvironmentSetting_Rule_Level, type EnvironmentSetting } from "@gen/svc/v1/setting_operations_pb.js";

export interface ReviewRuleRow {
  type: string;
  level: EnvironmentSetting_Rule_Level;
  payload?: JsonObject;
}

export interface EnvironmentRow {
  id: string;
  /** Added on this page, so its id is still typed. */
  added: boolean;
  title: string;
  color: string;
  protected: boolean;
  rolloutPolicy: EnvironmentSetting_RolloutPolicy;
  rules: ReviewRuleRow[];
}

export const LEVELS = [
  { value: EnvironmentSetting_Rule_Level.ERROR, label: "Error" },
  { value: EnvironmentSetting_Rule_Level.WARNING, label: "Warning" },
  { value: EnvironmentSetting_Rule_Level.DISABLED, label: "Disabled" },
] as const;

export function environmentRowsOf(setting: EnvironmentSetting): EnvironmentRow[] {
  return setting.environments.map((environment) => ({
    id: environment.id ?? "",
    added: false,
    title: environment.title ?? "",
    color: environment.color ?? "",
    protected: environment.protected === true,
    rolloutPolicy: environment.rolloutPolicy,
    rules: (environment.sqlReview?.rules ?? []).map((rule) => ({ type: rule.type ?? "", level: rule.level, payload: rule.payload })),
  }));
}

export function newEnvironmentRow(): EnvironmentRow {
  return { id: "", added: true, title: "", color: "", protected: false, rolloutPolicy: EnvironmentSetting_RolloutPolicy.MANUAL, rules: [] };
}

export function environmentsOf(rows: readonly EnvironmentRow[]) {
  return rows.map((row) => ({
    id: row.id.trim(),
    title: row.title.trim(),
    color: row.color.trim(),
    protected: row.protected,
    rolloutPolicy: row.rolloutPolicy,
    sqlReview: { rules: row.rules.map((rule) => ({ type: rule.type, level: rule.level, payload: rule.payload })) },
  }));
}
