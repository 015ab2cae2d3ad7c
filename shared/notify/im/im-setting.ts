// The APP_IM entries as the IM channels use them (contract §7.4, §19.6): only
// enabled ones; their credentials opened only for the attempt that sends.
import type { AppImSetting, AppImSetting_Im } from "../../gen/svc/store/setting_integrations_pb.js";
import { AppImSetting_Type } from "../../gen/svc/store/setting_integrations_pb.js";
import type { CommonQueryMethods } from "slonik";
import { readSetting, storedSettings } from "../../governance/index.ts";
import { type DomainEvent, isSealed, type SecretBox } from "../../platform/index.ts";
import type { ImEntry, ImVendor } from "./im-vendor.ts";

/** APP_IM as one event's transaction reads it, read once for all the IM channels. */
const perEvent = new WeakMap<DomainEvent, Promise<AppImSetting>>();

/**
 * The enabled APP_IM entry of the vendor's type, as stored now (not a
 * process's cached copy); read once per event when `event` is given.
 */
export async function enabledEntry(db: CommonQueryMethods, vendor: ImVendor, event?: DomainEvent): Promise<AppImSetting_Im | undefined> {
  let setting = event && perEvent.get(event);
  if (!setting) {
    setting = readSetting(storedSettings(db), "APP_IM");
    if (event) perEvent.set(event, setting);
  }
  return (await setting).settings.find((im) => im.type === AppImSetting_Type[vendor.type] && im.enabled === true);
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
