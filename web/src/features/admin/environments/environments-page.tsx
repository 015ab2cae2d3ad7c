// The environments (contract §9.2: the ENVIRONMENT setting, §7.7) in
// promotion order, each with its protection, rollout policy and SQL review
// rules. Readers of settings see them; holders of bb.settings.set reorder,
// add, edit and remove them, the list written whole under the etag read (an
// environment still in use is refused with the server's message).
import { type EnvironmentSetting, EnvironmentSettingSchema } from "@gen/svc/v1/setting_operations_pb.js";
import { create } from "@bufbuild/protobuf";
import { changedFields } from "../settings/changed-fields.ts";
import { DraftSettingForm } from "../settings/draft-setting-form.tsx";
import { listEdits } from "../settings/list-edits.ts";
import { SettingPage } from "../settings/setting-page.tsx";
import { useSetting } from "../settings/use-setting.ts";
import { EnvironmentFields } from "./environment-fields.tsx";
import { type EnvironmentRow, environmentRowsOf, environmentsOf, newEnvironmentRow } from "./environment-rows.ts";

function changesOf(rows: EnvironmentRow[], read: EnvironmentSetting) {
  const payload = create(EnvironmentSettingSchema, { environments: environmentsOf(rows) });
  return { payload, fields: changedFields(EnvironmentSettingSchema, read, payload, ["environments"]) };
}

export function EnvironmentsPage() {
  const setting = useSetting("environment");
  return (
    <SettingPage title="Environments" setting={setting}>
      <p className="hint">Rollouts go through them in this order.</p>
      <DraftSettingForm setting={setting} label="Environments" draftOf={environmentRowsOf} changesOf={changesOf}>
        {(rows, setRows) => {
          const edits = listEdits(rows, setRows);
          return (
            <>
              {rows.length === 0 && <p className="empty">No environment.</p>}
              {rows.map((row, index) => (
                <EnvironmentFields key={row.added ? `new-${index}` : row.id} number={index + 1} count={rows.length} row={row} edits={edits} />
              ))}
              <button type="button" className="button" onClick={() => edits.add(newEnvironmentRow())}>
                Add an environment
              </button>
            </>
          );
        }}
      </DraftSettingForm>
    </SettingPage>
  );
}
