// One request to a project webhook: GENERIC gets the payload's JSON signed
// as MONITORING's is; a vendor type gets its message format, and DingTalk
// and Feishu/Lark robots with a signing secret get their signature (DingTalk
// in the URL's timestamp and sign, Feishu/Lark in the body's).
import { createHmac } from "node:crypto";
import type { NotificationPayload } from "../payload.ts";
import { signedHeaders } from "../signature.ts";
import { vendorMessage } from "./vendor-messages.ts";
import type { WebhookType } from "./webhook.store.ts";

/** A webhook with its URL and secret opened, as only a send holds it. */
export interface OpenWebhook {
  type: WebhookType;
  url: string;
  secret: string | undefined;
}

export interface WebhookRequest {
  url: string;
  body: string;
  headers: Record<string, string>;
}

export function webhookRequest(hook: OpenWebhook, payload: NotificationPayload, deliveryId: string, now = Date.now()): WebhookRequest {
  if (hook.type === "GENERIC") {
    const body = JSON.stringify(payload);
    return { url: hook.url, body, headers: signedHeaders({ event: payload.event, deliveryId, body }, hook.secret) };
  }
  const url = new URL(hook.url);
  const message: Record<string, unknown> = { ...vendorMessage(hook.type, payload, url) };
  if (hook.secret && hook.type === "DINGTALK") {
    url.searchParams.set("timestamp", String(now));
    url.searchParams.set("sign", hmacBase64(hook.secret, `${now}\n${hook.secret}`));
  }
  if (hook.secret && (hook.type === "FEISHU" || hook.type === "LARK")) {
    const seconds = Math.floor(now / 1000);
    // Feishu's robot signs with the timestamp and secret as the key and an empty message.
    Object.assign(message, { timestamp: String(seconds), sign: hmacBase64(`${seconds}\n${hook.secret}`, "") });
  }
  return { url: url.href, body: JSON.stringify(message), headers: {} };
}

function hmacBase64(key: string, data: string): string {
  return createHmac("sha256", key).update(data).digest("base64");
}
