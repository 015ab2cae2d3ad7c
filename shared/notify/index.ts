// The notify capability's public surface: what the processes use.
// Everything else under shared/notify/ is private to it.
export { type DeliverDeps, deliverNotifications } from "./deliver.ts";
export { deleteExpiredDeliveries } from "./delivery-retention.ts";
export { deliveryName, type DeliveryListRequest, listDeliveryPage, retryDelivery } from "./delivery-log.ts";
export { type ImTestResult, testImEntries } from "./im/test-app-im.ts";
export type { DeliveryRow, DeliveryStatus } from "./delivery.store.ts";
export { publishNotifications, type PublishOptions } from "./publish.ts";
export { notifySettingRules } from "./setting-rules.ts";
export { testMonitoringWebhooks, type WebhookTestResult } from "./test-monitoring.ts";
export { testProjectWebhook, type WebhookTestAnswer } from "./project-webhooks/test-webhook.ts";
export { type WebhookDraft, webhookName } from "./project-webhooks/webhook-fields.ts";
export type { WebhookRow } from "./project-webhooks/webhook.store.ts";
export {
  createProjectWebhook,
  deleteProjectWebhook,
  getProjectWebhook,
  listProjectWebhooks,
  updateProjectWebhook,
  type WebhookWriteDeps,
} from "./project-webhooks/webhooks.ts";
