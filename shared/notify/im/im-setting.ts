// The APP_IM entries as the IM channels use them (contract §7.4, §19.6): only
// enabled ones; their credentials opened only for the attempt that sends.
import type { AppImSetting_Im } from "../../gen/svc/store/setting_integrations_pb.js";
import { AppImSetting_Type } from "../../gen/svc/store/setting_integrations_pb.js";
import { readSetting, type SettingReader } from "../../governance/index.ts";
import { isSealed, type SecretBox } from "../../platform/index.ts";
import type { ImEntry, ImVendor } from "./im-vendor.ts";

/** The enabled APP_IM entry of the vendor's type, as `settings` has it (the store's now, or the process's cache). */
export async function enabledEntry(settings: SettingReader, vendor: ImVendor): Promise<AppImSetting_Im | undefined> {
  return (await readSetting(settings, "APP_IM")).settings.find((im) => im.type === AppImSetting_Type[vendor.type] && im.enabled === true);
}

/** The entry's configuration of the vendor, as stored (credentials sealed). */
function storedFields(im: AppImSetting_Im, vendor: ImVendor): Record<string, unknown> {
  return ((im as unknown as Record<string, unknown>)[vendor.field] ?? {}) as Record<string, unknown>;
}

/** Whether the entry names a chat for messages to nobody in particular. */
export function hasChat(im: AppImSetting_Im, vendor: ImVendor): boolean {
  return Boolean(storedFields(im, vendor)[vendor.chatField]);
}

/** The entry with its credentials opened, or why it cannot send. */
export function openEntry(im: AppImSetting_Im, vendor: ImVendor, secrets: SecretBox): ImEntry | { missing: string } {
  const fields: Record<string, string> = {};
  for (const [name, value] of Object.entries(storedFields(im, vendor))) {
    if (!name.startsWith("$") && typeof value === "string" && value) fields[name] = isSealed(value) ? secrets.open(value) : value;
  }
  const missing = vendor.required.find((name) => !fields[name]);
  if (missing) return { missing: `settings/APP_IM ${vendor.field}.${missing} is not set` };
  return { type: vendor.type, baseUrl: (im.apiBaseUrl ?? "").replace(/\/+$/, ""), fields };
}
