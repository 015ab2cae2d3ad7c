// The maintenance window (contract §7.9, §12.8): while on, task runs start
// only inside one of the weekly windows, in the setting's time zone. The
// server refuses turning it on without a window, with its message.
import { type MaintenanceWindowSetting, MaintenanceWindowSettingSchema } from "@gen/svc/v1/setting_operations_pb.js";
import { create } from "@bufbuild/protobuf";
import { Field } from "../../../components/field.tsx";
import { changedFields } from "../settings/changed-fields.ts";
import { DraftSettingForm } from "../settings/draft-setting-form.tsx";
import { listEdits } from "../settings/list-edits.ts";
import { SettingPage } from "../settings/setting-page.tsx";
import { useSetting } from "../settings/use-setting.ts";
import { newWindowRow, type WindowDraft, windowDraftOf, windowPayloadOf } from "./window-draft.ts";
import { WindowFields } from "./window-fields.tsx";

function changesOf(draft: WindowDraft, read: MaintenanceWindowSetting) {
  const payload = create(MaintenanceWindowSettingSchema, windowPayloadOf(draft));
  return { payload, fields: changedFields(MaintenanceWindowSettingSchema, read, payload, ["enabled", "timezone", "windows"]) };
}

export function MaintenanceWindowPage() {
  const setting = useSetting("maintenanceWindow");
  return (
    <SettingPage title="Maintenance window" setting={setting}>
      <DraftSettingForm setting={setting} label="Maintenance window" draftOf={windowDraftOf} changesOf={changesOf}>
        {(draft, setDraft) => {
          const edits = listEdits(draft.windows, (windows) => setDraft({ ...draft, windows }));
          return (
            <>
              <label className="check">
                <input type="checkbox" checked={draft.enabled} onChange={(event) => setDraft({ ...draft, enabled: event.target.checked })} /> Start task runs only inside a window
              </label>
              <Field label="Time zone" name="timezone" value={draft.timezone} onChange={(event) => setDraft({ ...draft, timezone: event.target.value })} hint="An IANA zone such as Europe/Paris; the windows are in it." />
              {draft.windows.length === 0 && <p className="empty">No window yet.</p>}
              {draft.windows.map((row, index) => (
                <WindowFields key={index} number={index + 1} count={draft.windows.length} row={row} edits={edits} />
              ))}
              <button type="button" className="button" onClick={() => edits.add(newWindowRow())}>
                Add a window
              </button>
            </>
          );
        }}
      </DraftSettingForm>
    </SettingPage>
  );
}
