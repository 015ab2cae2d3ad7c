// The emergency pause (contract §7.10, §12.7): whether rollouts are stopped
// across the workspace, since when, by whom and why; a holder of
// bb.settings.set pauses with a reason and lifts it. Everyone signed in sees
// the pause in the shell's banner.
import { FormError } from "../../../components/alert.tsx";
import { Loading } from "../../../components/loading.tsx";
import { SubmitButton } from "../../../components/submit-button.tsx";
import { TextAreaField } from "../../../components/text-area-field.tsx";
import { TimeText } from "../../../components/time-text.tsx";
import { useDocumentTitle } from "../../../hooks/use-document-title.ts";
import { refreshBanners } from "../../shell/banners.tsx";
import { usePermissions, WORKSPACE } from "../../iam/use-permissions.ts";
import { useAction } from "../../../hooks/use-action.ts";
import { WriteRefusal } from "../components/write-refusal.tsx";
import { useSetting } from "../settings/use-setting.ts";

export function EmergencyPausePage() {
  useDocumentTitle("Emergency pause");
  const setting = useSetting("emergencyPause");
  const permissions = usePermissions(WORKSPACE, ["bb.settings.set"]);
  const write = useAction();
  const pause = setting.payload;

  const change = (enabled: boolean, reason: string) =>
    write.run(async () => {
      await setting.save({ $typeName: "svc.v1.EmergencyPauseSetting", enabled, reason }, ["enabled", "reason"]);
      refreshBanners();
    });

  return (
    <section aria-labelledby="pause-heading" className="page">
      <h1 id="pause-heading">Emergency pause</h1>
      <p className="hint">While the pause is on, no task run starts anywhere in the workspace; running ones finish.</p>
      {setting.loaded.status === "failed" && <FormError message={setting.loaded.message} />}
      {setting.loaded.status === "loading" && <Loading />}
      {pause && (
        <div className="admin-card">
          <p role="status">
            {pause.enabled ? <strong>Rollouts are paused.</strong> : "Rollouts run normally."}
            {pause.enabled && pause.reason ? ` Reason: ${pause.reason}` : ""}
          </p>
          {pause.updater && (
            <p className="hint">
              Last changed by {pause.updater.replace(/^users\//, "")} at <TimeText time={pause.updateTime} />.
            </p>
          )}
          <WriteRefusal action={write} onReload={() => (write.dismiss(), setting.reload())} />
          {permissions.can("bb.settings.set") &&
            (pause.enabled ? (
              <button type="button" className="button primary" disabled={write.pending} onClick={() => void change(false, "")}>
                Lift the pause
              </button>
            ) : (
              <form onSubmit={(event) => (event.preventDefault(), void change(true, String(new FormData(event.currentTarget).get("reason")).trim()))}>
                <TextAreaField label="Reason" name="reason" required maxLength={4096} hint="Shown to everyone in the workspace's banner." />
                <SubmitButton pending={write.pending}>Pause all rollouts</SubmitButton>
              </form>
            ))}
        </div>
      )}
    </section>
  );
}
