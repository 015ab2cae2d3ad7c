// The MONITORING channel (contract §7.11, §16.3): the payload's JSON POSTed
// to each webhook whose event list is empty or names the event, with
// X-Svc-Event, X-Svc-Delivery (unique per delivery, for receivers to drop a
// repeat) and X-Svc-Signature: sha256=<hex HMAC-SHA256 of the exact body
// with the webhook's secret>, when it has one. The secret is opened only here.
import type { MonitoringSetting, MonitoringSetting_Webhook } from "../gen/svc/store/setting_integrations_pb.js";
import type { CommonQueryMethods } from "slonik";
import { readSetting, storedSettings } from "../governance/index.ts";
import type { SecretBox } from "../platform/index.ts";
import type { Channel } from "./channel.ts";
import { shownUrl } from "./payload.ts";
import { attemptOutcome } from "./retry-policy.ts";
import { type SignedPost, signedHeaders } from "./signature.ts";
import { postJson, type WebhookAnswer } from "./webhook-post.ts";

export type Webhook = MonitoringSetting_Webhook & { url: string };

/** The webhooks that take `event`; every webhook when no event is named (a test message). */
export function webhooksFor(setting: MonitoringSetting, event?: string): Webhook[] {
  return setting.webhooks.filter((hook): hook is Webhook => !!hook.url && (event === undefined || hook.events.length === 0 || hook.events.includes(event)));
}

/** Sends one signed POST to the webhook. */
export async function postToWebhook(hook: Webhook, post: SignedPost, secrets: SecretBox, allowPrivate: boolean): Promise<WebhookAnswer> {
  return postJson(hook.url, post.body, signedHeaders(post, hook.secret && secrets.open(hook.secret)), { allowPrivate });
}

/** The MONITORING setting as stored now (not a process's cached copy). */
export function monitoringSetting(db: CommonQueryMethods): Promise<MonitoringSetting> {
  return readSetting(storedSettings(db), "MONITORING");
}

export const monitoringChannel: Channel = {
  name: "MONITORING",
  async targets(_tx, event, settings) {
    return webhooksFor(await readSetting(settings, "MONITORING"), event.event).map((hook) => ({ target: shownUrl(hook.url), address: hook.url }));
  },
  async send(delivery, context) {
    // The webhook as configured now: a removed one is not sent to, a new secret signs.
    const hook = webhooksFor(await readSetting(context.settings, "MONITORING"), delivery.event).find((h) => h.url === delivery.address);
    if (!hook) return { kind: "failed", error: "the webhook no longer takes this event in settings/MONITORING" };
    const post = { event: delivery.event, deliveryId: delivery.deliveryId, body: JSON.stringify(delivery.payload) };
    return attemptOutcome(() => postToWebhook(hook, post, context.secrets, context.allowPrivate));
  },
};
