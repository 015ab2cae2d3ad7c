// What the banners say, from the two settings that carry them.
import type { Setting, SettingValue } from "@gen/svc/v1/setting_service_pb.js";
import { WorkspaceProfileSetting_Announcement_Level as Level } from "@gen/svc/v1/setting_workspace_pb.js";

export interface Banner {
  key: string;
  tone: "info" | "warning" | "critical";
  label: string;
  text: string;
  /** Only http(s) links are shown. */
  link?: string;
}

const TONE: Record<Level, Banner["tone"]> = {
  [Level.LEVEL_UNSPECIFIED]: "info",
  [Level.INFO]: "info",
  [Level.WARNING]: "warning",
  [Level.CRITICAL]: "critical",
};

/** Each setting's payload type by its case name ("emergencyPause" …). */
type Payloads = { [P in Exclude<SettingValue["value"], { case: undefined }> as P["case"]]: P["value"] };

/** The payload of the first setting of this kind. */
function payload<C extends keyof Payloads>(settings: readonly Setting[], kind: C): Payloads[C] | undefined {
  const found = settings.find((setting) => setting.value?.value.case === kind);
  return found?.value?.value.value as Payloads[C] | undefined;
}

/** The pause first, then the announcement. */
export function bannersOf(settings: readonly Setting[]): Banner[] {
  const banners: Banner[] = [];
  const pause = payload(settings, "emergencyPause");
  if (pause?.enabled) {
    const reason = pause.reason?.trim();
    const text = `rollouts are stopped across the workspace.${reason ? ` Reason: ${reason}` : ""}`;
    banners.push({ key: "pause", tone: "critical", label: "Emergency pause:", text });
  }
  const announcement = payload(settings, "workspaceProfile")?.announcement;
  if (announcement?.text?.trim()) {
    const link = announcement.link && /^https?:\/\//i.test(announcement.link) ? announcement.link : undefined;
    const tone = TONE[announcement.level];
    banners.push({ key: "announcement", tone, label: "Announcement:", text: announcement.text.trim(), ...(link ? { link } : {}) });
  }
  return banners;
}
