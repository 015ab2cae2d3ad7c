// maintenance.cleanupNotificationDeliveries: deletes the sent and failed
// notification deliveries older than
// WORKSPACE_PROFILE.notification_delivery_retention (contract §16.1).
import type { Task } from "graphile-worker";
import type { SettingReader } from "../../shared/governance/index.ts";
import { deleteExpiredDeliveries } from "../../shared/notify/index.ts";
import { type Db, parseJobPayload } from "../../shared/platform/index.ts";

export function cleanupNotificationDeliveries(db: Db, settings: SettingReader): Task {
  return async (raw, helpers) => {
    parseJobPayload("maintenance.cleanupNotificationDeliveries", raw);
    const deleted = await deleteExpiredDeliveries(db, settings);
    helpers.logger.info(`deleted ${deleted} notification deliveries past their retention`);
  };
}
