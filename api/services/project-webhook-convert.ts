// Project webhooks ⇄ svc.v1 Webhook (contract §19.3): the URL and the secret
// are never returned; url_shown and secret_set say what is stored.
import { create } from "@bufbuild/protobuf";
import { timestampFromDate } from "@bufbuild/protobuf/wkt";
import { type Webhook, Webhook_Type, WebhookSchema } from "../../shared/gen/svc/v1/project_webhook_pb.js";
import { type WebhookDraft, webhookName, type WebhookRow } from "../../shared/notify/index.ts";

export function toWebhook(row: WebhookRow): Webhook {
  return create(WebhookSchema, {
    name: webhookName({ projectId: row.projectId, id: row.id }),
    title: row.title,
    type: Webhook_Type[row.type],
    urlShown: row.urlShown,
    secretSet: row.sealedSecret !== undefined,
    events: row.events,
    creator: row.creator,
    createTime: timestampFromDate(row.createTime),
    updateTime: timestampFromDate(row.updateTime),
    etag: row.etag,
  });
}

export function webhookDraft(webhook: Webhook | undefined): WebhookDraft {
  return {
    title: webhook?.title ?? "",
    type: webhook && webhook.type !== Webhook_Type.TYPE_UNSPECIFIED ? (Webhook_Type[webhook.type] ?? String(webhook.type)) : "",
    url: webhook?.url ?? "",
    secret: webhook?.secret,
    events: webhook?.events ?? [],
  };
}
