// The APP_IM entries (contract §7.4): the fields of each type's entry, and the
// entry a form describes. Credentials are input-only: one left empty is kept
// as stored, the server matching entries by type.
import { AppImSetting_Type, type AppImSetting_Im } from "@gen/svc/v1/setting_integrations_pb.js";
import { inputValue, payloadInit, type SettingField } from "../settings/setting-fields.ts";

type Vendor = "slack" | "feishu" | "wecom" | "lark" | "dingtalk" | "teams" | "telegram";

const secret = (vendor: Vendor, key: string, label: string): SettingField => ({ path: `${vendor}.${key}`, label, kind: "secret", setFlag: `${vendor}.${key}Set` });
const chat = (vendor: Vendor, key = "chatId", label = "Chat id"): SettingField => ({ path: `${vendor}.${key}`, label, kind: "text", hint: "Where messages to nobody in particular go." });

const VENDOR_FIELDS: Record<Exclude<AppImSetting_Type, AppImSetting_Type.TYPE_UNSPECIFIED>, readonly SettingField[]> = {
  [AppImSetting_Type.SLACK]: [secret("slack", "token", "Bot token"), chat("slack", "channel", "Channel")],
  [AppImSetting_Type.FEISHU]: [secret("feishu", "appId", "App id"), secret("feishu", "appSecret", "App secret"), chat("feishu")],
  [AppImSetting_Type.WECOM]: [secret("wecom", "corpId", "Corp id"), secret("wecom", "agentId", "Agent id"), secret("wecom", "secret", "Secret"), chat("wecom")],
  [AppImSetting_Type.LARK]: [secret("lark", "appId", "App id"), secret("lark", "appSecret", "App secret"), chat("lark")],
  [AppImSetting_Type.DINGTALK]: [secret("dingtalk", "clientId", "Client id"), secret("dingtalk", "clientSecret", "Client secret"), secret("dingtalk", "robotCode", "Robot code"), chat("dingtalk")],
  [AppImSetting_Type.TEAMS]: [secret("teams", "tenantId", "Tenant id"), secret("teams", "clientId", "Client id"), secret("teams", "clientSecret", "Client secret"), chat("teams")],
  [AppImSetting_Type.TELEGRAM]: [secret("telegram", "botToken", "Bot token"), secret("telegram", "chatId", "Chat id")],
};

export const IM_TYPES = Object.keys(VENDOR_FIELDS).map(Number) as AppImSetting_Type[];

/** "Slack", "Dingtalk" … */
export function imTypeName(type: AppImSetting_Type): string {
  const name = AppImSetting_Type[type];
  return name.charAt(0) + name.slice(1).toLowerCase();
}

/** An entry's fields: on, the API root, then the vendor's. */
export function imFields(type: AppImSetting_Type): readonly SettingField[] {
  const name = imTypeName(type);
  return [
    { path: "enabled", label: `Send through ${name}`, kind: "checkbox" },
    { path: "apiBaseUrl", label: `${name} API base URL`, kind: "url", hint: "Empty for the vendor's own API; a proxy or an on-premises address otherwise." },
    ...VENDOR_FIELDS[type as keyof typeof VENDOR_FIELDS].map((field) => ({ ...field, label: `${name} ${field.label.toLowerCase()}` })),
  ];
}

/** The entry `form` describes, every field given (credentials only when typed). */
export function imEntryInit(type: AppImSetting_Type, form: FormData) {
  const values = new Map(imFields(type).map((field) => [field.path, inputValue(field, form)] as const));
  return { ...payloadInit(values), type };
}

/** The stored entries with `type`'s replaced by (or joined with) `entry`. */
export function withEntry(stored: readonly AppImSetting_Im[], entry: ReturnType<typeof imEntryInit>) {
  const others = stored.filter((im) => im.type !== entry.type);
  return [...others, entry];
}
