// What a project webhook may hold (contract §19.3): its name, the checks of
// its fields, and what reads show of its URL. An incoming-webhook URL is a
// credential (Slack's path, DingTalk's access_token, a Telegram bot token),
// so a vendor type shows only the URL's origin; GENERIC, whose credential is
// its signing secret, shows the URL without user, password, query or fragment.
import { PIPELINE_EVENTS } from "../../change/index.ts";
import { invalidArgument, quoted } from "../../platform/index.ts";
import { shownUrl } from "../payload.ts";
import { WEBHOOK_TYPES, type WebhookType } from "./webhook.store.ts";

/** A project holds at most this many webhooks (its list is one page). */
export const MAX_WEBHOOKS = 50;

/** The types whose receivers check a signature made with the webhook's secret. */
const SIGNING_TYPES: readonly WebhookType[] = ["GENERIC", "DINGTALK", "FEISHU", "LARK"];

const NAME = /^projects\/([a-z][a-z0-9-]{0,62})\/webhooks\/([1-9]\d{0,17})$/;

export interface WebhookRef {
  projectId: string;
  id: string;
}

export function webhookName(ref: WebhookRef): string {
  return `projects/${ref.projectId}/webhooks/${ref.id}`;
}

export function parseWebhookName(name: string, field: string): WebhookRef {
  const match = NAME.exec(name);
  if (!match) throw invalidArgument(`${field}: ${quoted(name)} is not a valid name; use projects/<project_id>/webhooks/<id>`);
  return { projectId: match[1]!, id: match[2]! };
}

/** A webhook as a client writes it, before checks. */
export interface WebhookDraft {
  title: string;
  /** The proto's enum name; "" when not given. */
  type: string;
  url: string;
  secret: string | undefined;
  events: readonly string[];
}

export function checkTitle(title: string): string {
  const trimmed = title.trim();
  if (!trimmed) throw invalidArgument("webhook.title is required");
  return trimmed;
}

export function checkType(type: string): WebhookType {
  const found = WEBHOOK_TYPES.find((t) => t === type);
  if (!found) throw invalidArgument(`webhook.type: ${quoted(type)} is not one of ${WEBHOOK_TYPES.join(", ")}`);
  return found;
}

/** The URL, parsed: http(s), and for TELEGRAM the sendMessage call with its chat_id. */
export function checkUrl(url: string, type: WebhookType): URL {
  let parsed: URL;
  try {
    parsed = new URL(url);
  } catch {
    throw invalidArgument(url ? "webhook.url is not a URL" : "webhook.url is required");
  }
  if (parsed.protocol !== "http:" && parsed.protocol !== "https:") throw invalidArgument(`webhook.url: the scheme ${quoted(parsed.protocol)} is not http or https`);
  if (type === "TELEGRAM" && !parsed.searchParams.get("chat_id")) {
    throw invalidArgument("webhook.url: a TELEGRAM webhook is https://api.telegram.org/bot<token>/sendMessage?chat_id=<chat id>; the chat_id is missing");
  }
  return parsed;
}

export function checkSecret(secret: string | undefined, type: WebhookType): string | undefined {
  if (!secret) return undefined;
  if (!SIGNING_TYPES.includes(type)) throw invalidArgument(`webhook.secret: a ${type} webhook signs nothing (only ${SIGNING_TYPES.join(", ")} do); its URL is its credential`);
  return secret;
}

export function checkEvents(events: readonly string[]): string[] {
  for (const [i, event] of events.entries()) {
    if (!(PIPELINE_EVENTS as readonly string[]).includes(event)) {
      throw invalidArgument(`webhook.events[${i}]: ${quoted(event)} is not an event of a project; use ${PIPELINE_EVENTS.join(", ")}`);
    }
  }
  return [...new Set(events)];
}

/** What reads show of the URL. */
export function urlShown(url: URL, type: WebhookType): string {
  return type === "GENERIC" ? shownUrl(url.href) : `${url.origin}/***`;
}
