// A setting (contract §7.1) by the case of its payload: its resource name and
// its typed value.
import type { Setting, SettingValue } from "@gen/svc/v1/setting_service_pb.js";

/** Each setting's payload type by its case name ("emergencyPause" …). */
export type SettingPayloads = { [P in Exclude<SettingValue["value"], { case: undefined }> as P["case"]]: P["value"] };
export type SettingKind = keyof SettingPayloads;

/** "emergencyPause" → "settings/EMERGENCY_PAUSE". */
export function settingName(kind: SettingKind): string {
  return `settings/${kind.replace(/[A-Z]/g, (c) => `_${c}`).toUpperCase()}`;
}

export function payloadOf<K extends SettingKind>(setting: Setting | undefined, kind: K): SettingPayloads[K] | undefined {
  const value = setting?.value?.value;
  return value?.case === kind ? (value.value as SettingPayloads[K]) : undefined;
}
