// The approval rules (WORKSPACE_APPROVAL, contract §7.3, §11.2): tried in
// order for a new issue, the first whose condition holds gives its steps.
// Written whole under the etag read; a condition that does not compile is
// refused with the server's message naming the rule.
import { type WorkspaceApprovalSetting, WorkspaceApprovalSettingSchema } from "@gen/svc/v1/setting_workspace_pb.js";
import { create } from "@bufbuild/protobuf";
import { FormError } from "../../../components/alert.tsx";
import { useLoad } from "../../../hooks/use-load.ts";
import { allRoles } from "../members/all-roles.ts";
import { changedFields } from "../settings/changed-fields.ts";
import { DraftSettingForm } from "../settings/draft-setting-form.tsx";
import { listEdits } from "../settings/list-edits.ts";
import { SettingPage } from "../settings/setting-page.tsx";
import { useSetting } from "../settings/use-setting.ts";
import { ApprovalRuleFields } from "./approval-rule-fields.tsx";
import { NOT_APPROVERS, newRuleRow, type RuleRow, ruleRowsOf, rulesOf } from "./approval-rows.ts";

export function ApprovalRulesPage() {
  const setting = useSetting("workspaceApproval");
  const roles = useLoad(allRoles, []);
  const approvers = roles.status === "done" ? roles.value.filter((role) => !NOT_APPROVERS.has(role.name)) : [];
  const changesOf = (rows: RuleRow[], read: WorkspaceApprovalSetting) => {
    const payload = create(WorkspaceApprovalSettingSchema, { rules: rulesOf(rows) });
    return { payload, fields: changedFields(WorkspaceApprovalSettingSchema, read, payload, ["rules"]) };
  };
  return (
    <SettingPage title="Approval rules" setting={setting}>
      <p className="hint">A new issue takes the steps of the first rule whose condition holds for its change; when none holds, it needs no approval.</p>
      {roles.status === "failed" && <FormError message={`The roles could not be read: ${roles.message}`} />}
      <DraftSettingForm setting={setting} label="Approval rules" draftOf={ruleRowsOf} changesOf={changesOf}>
        {(rows, setRows) => {
          const edits = listEdits(rows, setRows);
          return (
            <>
              {rows.length === 0 && <p className="empty">No rule: no change needs approval.</p>}
              {rows.map((row, index) => (
                <ApprovalRuleFields key={index} number={index + 1} count={rows.length} row={row} roles={approvers} edits={edits} />
              ))}
              <button type="button" className="button" onClick={() => edits.add(newRuleRow())}>
                Add a rule
              </button>
            </>
          );
        }}
      </DraftSettingForm>
    </SettingPage>
  );
}
