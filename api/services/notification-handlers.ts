// SettingService's notification calls (contract §16.1, §16.3): the delivery
// log and its :retry, and the test messages of MONITORING and APP_IM.
import type { ServiceImpl } from "@connectrpc/connect";
import { AppImSetting_Type } from "../../shared/gen/svc/v1/setting_integrations_pb.js";
import type { SettingService } from "../../shared/gen/svc/v1/setting_service_pb.js";
import { type Db, invalidArgument, type SecretBox } from "../../shared/platform/index.ts";
import { type ImTestResult, listDeliveryPage, retryDelivery, testImEntries, testMonitoringWebhooks } from "../../shared/notify/index.ts";
import { auditAtEndScope, auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { toNotificationDelivery } from "./notification-delivery-convert.ts";

export interface NotificationDeps {
  db: Db;
  secrets: SecretBox;
  /** --webhook-allow-private. */
  webhookAllowPrivate: boolean;
}

type Handlers = Pick<
  ServiceImpl<typeof SettingService>,
  "listNotificationDeliveries" | "retryNotificationDelivery" | "testMonitoringSetting" | "testAppImSetting"
>;

export function notificationHandlers(deps: NotificationDeps): Handlers {
  return {
    async listNotificationDeliveries(req) {
      const page = await listDeliveryPage(deps.db, req);
      return { notificationDeliveries: page.rows.map(toNotificationDelivery), nextPageToken: page.nextPageToken };
    },
    async retryNotificationDelivery(req, context) {
      const audit = auditScope(context);
      audit.resource = req.name;
      return toNotificationDelivery(await retryDelivery(audit.tx, req.name));
    },
    async testMonitoringSetting(_req, context) {
      auditAtEndScope(context).resource = "settings/MONITORING";
      return { results: await testMonitoringWebhooks(deps.db, deps.secrets, deps.webhookAllowPrivate, callerOf(context).name) };
    },
    async testAppImSetting(req, context) {
      auditAtEndScope(context).resource = "settings/APP_IM";
      const results = await testImEntries(deps.db, deps.secrets, { type: imType(req.type), caller: callerOf(context), allowPrivate: deps.webhookAllowPrivate });
      return { results: results.map((result) => ({ ...result, type: AppImSetting_Type[result.type] })) };
    },
  };
}

/** The request's entry type; undefined (every enabled entry) when unspecified. */
function imType(type: AppImSetting_Type): ImTestResult["type"] | undefined {
  if (type === AppImSetting_Type.TYPE_UNSPECIFIED) return undefined;
  const name = AppImSetting_Type[type] as ImTestResult["type"] | undefined;
  if (name === undefined) throw invalidArgument(`type: ${type} is not an APP_IM type`);
  return name;
}
