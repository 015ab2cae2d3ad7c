// The PROJECT_WEBHOOK channel (contract §19.3): an event of a project (its
// resource or issue under projects/<id>/) reaches each webhook of that
// project whose event list is empty or names it. The delivery log's target,
// and the address the worker keeps, is the webhook's name — never its URL,
// which is a credential: each attempt reads the webhook as it is then, so a
// deleted webhook, or one that no longer takes the event, ends the delivery
// FAILED, and a changed URL or secret is used at once. A transaction's
// events, and the deliveries of one job, read their project's webhooks once.
import type { CommonQueryMethods } from "slonik";
import type { DomainEvent, SecretBox } from "../../platform/index.ts";
import type { Channel, SendContext, SharedRead } from "../channel.ts";
import type { NotificationPayload } from "../payload.ts";
import { type AttemptOutcome, attemptOutcome } from "../retry-policy.ts";
import { postJson } from "../webhook-post.ts";
import { vendorOutcome } from "./vendor-answers.ts";
import { parseWebhookName, webhookName } from "./webhook-fields.ts";
import { type OpenWebhook, webhookRequest, type WebhookRequest } from "./webhook-request.ts";
import { listWebhooks, type WebhookRow } from "./webhook.store.ts";

const PROJECT_OF = /^projects\/([^/]+)\//;

/** The project an event belongs to, if any (workspace events have none). */
function projectOf(event: DomainEvent): string | undefined {
  return PROJECT_OF.exec(event.issue ?? event.resource)?.[1];
}

export const projectWebhookChannel: Channel = {
  name: "PROJECT_WEBHOOK",
  async targets(tx, event, _settings, shared) {
    const projectId = projectOf(event);
    if (projectId === undefined) return [];
    return (await webhooksOf(tx, projectId, shared))
      .filter((hook) => takes(hook, event.event))
      .map((hook) => {
        const name = webhookName({ projectId, id: hook.id });
        return { target: name, address: name };
      });
  },
  async send(delivery, context) {
    const ref = parseWebhookName(delivery.address, "address");
    const row = (await webhooksOf(context.db, ref.projectId, context.shared)).find((hook) => hook.id === ref.id);
    if (!row) return { kind: "failed", error: `${delivery.address} was deleted before this delivery was sent` };
    if (!takes(row, delivery.event)) return { kind: "failed", error: `${delivery.address} no longer takes ${delivery.event}` };
    return sendToWebhook(row, delivery.payload as NotificationPayload, delivery.deliveryId, context);
  },
};

/** The project's webhooks, read once for the events of a transaction or the deliveries of a job. */
function webhooksOf(db: CommonQueryMethods, projectId: string, shared: SharedRead): Promise<readonly WebhookRow[]> {
  return shared(`webhooks of ${projectId}`, () => listWebhooks(db, projectId));
}

/** Whether the webhook takes the event: its event list is empty or names it. */
function takes(hook: WebhookRow, event: string): boolean {
  return hook.events.length === 0 || hook.events.includes(event);
}

/** The request to a webhook as stored, its URL and secret opened for it only. */
export function requestTo(row: WebhookRow, payload: NotificationPayload, deliveryId: string, secrets: SecretBox): WebhookRequest {
  const hook: OpenWebhook = {
    type: row.type,
    url: secrets.open(row.sealedUrl),
    secret: row.sealedSecret === undefined ? undefined : secrets.open(row.sealedSecret),
  };
  return webhookRequest(hook, payload, deliveryId);
}

function sendToWebhook(row: WebhookRow, payload: NotificationPayload, deliveryId: string, context: SendContext): Promise<AttemptOutcome> {
  const request = requestTo(row, payload, deliveryId, context.secrets);
  return attemptOutcome(() => postJson(request.url, request.body, request.headers, { allowPrivate: context.allowPrivate }), (answer) => vendorOutcome(row.type, answer));
}
