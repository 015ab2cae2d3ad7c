// WORKSPACE_APPROVAL (contract §7.3) as the page edits it: each rule's
// condition and its steps, each step the roles any of whose holders may
// approve it. What the page does not edit (the source, the template's own
// title and description) goes back as read.
import { WorkspaceApprovalSetting_Source, type WorkspaceApprovalSetting } from "@gen/svc/v1/setting_workspace_pb.js";

export interface RuleRow {
  title: string;
  expression: string;
  description: string;
  /** Each step's roles, roles/<id>. */
  steps: string[][];
  source: WorkspaceApprovalSetting_Source;
  template: { title?: string; description?: string };
}

/** Steps may not name these (§7.3), so the page does not offer them. */
export const NOT_APPROVERS: ReadonlySet<string> = new Set(["roles/securityOfficer", "roles/readOnlyAuditor"]);

export function ruleRowsOf(setting: WorkspaceApprovalSetting): RuleRow[] {
  return setting.rules.map((rule) => ({
    title: rule.condition?.title ?? "",
    expression: rule.condition?.expression ?? "",
    description: rule.condition?.description ?? "",
    steps: (rule.template?.steps ?? []).map((step) => [...step.roles]),
    source: rule.source,
    template: { title: rule.template?.title, description: rule.template?.description },
  }));
}

export function newRuleRow(): RuleRow {
  return { title: "", expression: "", description: "", steps: [], source: WorkspaceApprovalSetting_Source.CHANGE_DATABASE, template: {} };
}

export function rulesOf(rows: readonly RuleRow[]) {
  return rows.map((row) => ({
    source: row.source,
    condition: { title: row.title.trim(), expression: row.expression.trim(), description: row.description.trim() },
    template: { ...row.template, steps: row.steps.map((roles) => ({ roles })) },
  }));
}
