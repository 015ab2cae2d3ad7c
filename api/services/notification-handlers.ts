// SettingService's notification calls (contract §16.1, §16.3): the delivery
// log and its :retry, and the MONITORING setting's test message.
import type { ServiceImpl } from "@connectrpc/connect";
import type { SettingService } from "../../shared/gen/svc/v1/setting_service_pb.js";
import type { Db, SecretBox } from "../../shared/platform/index.ts";
import { listDeliveryPage, retryDelivery, testMonitoringWebhooks } from "../../shared/notify/index.ts";
import { auditAtEndScope, auditScope } from "../transport/audit-scope.ts";
import { callerOf } from "../transport/interceptors/authn.ts";
import { toNotificationDelivery } from "./notification-delivery-convert.ts";

export interface NotificationDeps {
  db: Db;
  secrets: SecretBox;
  /** --webhook-allow-private. */
  webhookAllowPrivate: boolean;
}

type Handlers = Pick<ServiceImpl<typeof SettingService>, "listNotificationDeliveries" | "retryNotificationDelivery" | "testMonitoringSetting">;

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
  };
}
