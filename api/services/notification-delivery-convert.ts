// Delivery log rows ⇄ svc.v1 NotificationDelivery (contract §16.1).
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type NotificationDelivery, NotificationDelivery_Status, NotificationDeliverySchema } from "../../shared/gen/svc/v1/notification_delivery_pb.js";
import { deliveryName, type DeliveryRow } from "../../shared/notify/index.ts";

export function toNotificationDelivery(row: DeliveryRow): NotificationDelivery {
  return create(NotificationDeliverySchema, {
    name: deliveryName(row.id),
    channel: row.channel,
    event: row.event,
    target: row.target,
    status: NotificationDelivery_Status[row.status],
    attempts: row.attempts,
    lastError: row.lastError,
    createTime: timestampFromDate(row.createTime),
    sentTime: row.sentTime ? timestampFromDate(row.sentTime) : undefined,
  });
}
