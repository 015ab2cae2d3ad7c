// SettingService (contract §7): effective values for every signed-in caller,
// masked writes with bb.settings.set. SYSTEM never reaches a client.
import { create, type Message } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { SettingService, SettingValueSchema, type Setting, SettingSchema } from "../../shared/gen/svc/v1/setting_service_pb.js";
import { type Db, invalidArgument, type SecretBox } from "../../shared/platform/index.ts";
import {
  effectiveValue,
  findSettingRows,
  overlayExternalUrl,
  readWorkspaceProfile,
  sendTestEmail,
  type SettingKind,
  settingKind,
  settingNamed,
  type SettingPayloads,
  type SettingReader,
  type SettingRow,
  type SettingRules,
  SETTINGS,
  updateSetting,
} from "../../shared/governance/index.ts";
import { auditScope } from "../transport/audit-scope.ts";
import { notificationHandlers } from "./notification-handlers.ts";
import { apiPayloadField, payloadView, toApiPayload, toStorePayload } from "./setting-convert.ts";
import { requestFacts } from "../transport/context.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { registration } from "../transport/services.ts";

export interface SettingDeps {
  db: Db;
  settings: SettingReader;
  secrets: SecretBox;
  /** --external-url, which wins over the stored WORKSPACE_PROFILE.external_url. */
  externalUrl: string | undefined;
  /** What the capabilities add to settings' writes (their checks and reactions). */
  rules: SettingRules;
  /** --webhook-allow-private. */
  webhookAllowPrivate: boolean;
}

export function settingService(deps: SettingDeps) {
  const toSetting = (kind: SettingKind, row: SettingRow | undefined, effective: Message): Setting =>
    create(SettingSchema, {
      name: `settings/${kind.name}`,
      value: create(SettingValueSchema, { value: { case: apiPayloadField(kind).localName, value: toApiPayload(kind, effective) } as never }),
      etag: row?.etag ?? "",
      updateTime: row ? timestampFromDate(row.updateTime) : undefined,
    });

  /** The effective value of a stored row, as every reader sees it (--external-url included). */
  const effectiveOf = (kind: SettingKind, row: SettingRow | undefined): Message =>
    effectiveValue(kind, kind.name === "WORKSPACE_PROFILE" ? overlayExternalUrl(row?.value, deps.externalUrl) : row?.value);

  return registration(SettingService, {
    ...notificationHandlers(deps),
    async listSettings() {
      const rows = await findSettingRows(deps.db, SETTINGS.map((s) => s.name));
      return { settings: SETTINGS.map((kind) => toSetting(kind, rows.get(kind.name), effectiveOf(kind, rows.get(kind.name)))) };
    },
    async getSetting(req) {
      const kind = settingNamed(req.name);
      const row = (await findSettingRows(deps.db, [kind.name])).get(kind.name);
      return toSetting(kind, row, effectiveOf(kind, row));
    },
    async updateSetting(req, context) {
      const kind = settingNamed(req.setting?.name ?? "");
      const written = req.setting?.value?.value;
      const payload = apiPayloadField(kind);
      if (written?.case !== undefined && written.case !== payload.localName) {
        throw invalidArgument(`setting.value: settings/${kind.name} takes value.${payload.jsonName}, not value.${written.case}`);
      }
      const audit = auditScope(context);
      const row = await updateSetting(
        audit,
        {
          secrets: deps.secrets,
          updater: callerOf(context).name,
          externalUrlFlag: deps.externalUrl,
          logger: requestFacts(context.values).logger,
          rules: deps.rules,
        },
        {
          kind,
          value: written?.value ? toStorePayload(kind, written.value) : create(kind.schema),
          paths: req.updateMask?.paths ?? [],
          etag: req.etag || req.setting?.etag || "",
          view: payloadView(kind),
        },
      );
      return toSetting(kind, row, effectiveOf(kind, row));
    },
    async testEmailSetting(req, context) {
      const audit = auditScope(context);
      audit.resource = "settings/EMAIL";
      const stored = (await findSettingRows(audit.tx, ["EMAIL"])).get("EMAIL")?.value;
      const { title } = await readWorkspaceProfile(deps.settings);
      const given = req.email && toStorePayload(settingKind("EMAIL"), req.email);
      await sendTestEmail(stored, given as SettingPayloads["EMAIL"] | undefined, deps.secrets, req.to, title);
      return {};
    },
  });
}
