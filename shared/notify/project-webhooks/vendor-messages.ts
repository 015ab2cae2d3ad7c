// A notification in each vendor's incoming-webhook format (contract §19.3),
// from the text every person-facing channel shows (message-text.ts). What a
// user wrote (titles, comments, errors) is escaped for the format's markup —
// Slack's mrkdwn, Discord's and Teams' Markdown — or sent where no markup is
// read: the plain text of DingTalk, WeCom and Telegram, the structured
// elements of a Feishu/Lark post. GENERIC is not here: it gets the payload
// itself, signed (webhook-request.ts).
import { type MessageText, messageText, plainText, slackText } from "../message-text.ts";
import type { NotificationPayload } from "../payload.ts";
import type { WebhookType } from "./webhook.store.ts";

/** CommonMark's punctuation escapes (Discord, Teams' TextBlocks). */
const markdownEscape = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|~<>]/g, "\\$&");

/** Discord's longest message. */
const DISCORD_LENGTH = 2000;

const FORMATS: Record<Exclude<WebhookType, "GENERIC">, (text: MessageText, chatId: string) => object> = {
  SLACK: (text) => ({ text: slackText(text) }),
  DISCORD: (text) => ({
    // <link> keeps Discord from embedding a preview of the page.
    content: [`**${markdownEscape(text.headline)}**`, ...text.lines.map(markdownEscape), ...(text.link ? [`<${text.link}>`] : [])].join("\n").slice(0, DISCORD_LENGTH),
    // Nobody is pinged by what a user wrote (@everyone in a title).
    allowed_mentions: { parse: [] },
  }),
  TEAMS: (text) => ({ type: "message", attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", content: adaptiveCard(text) }] }),
  DINGTALK: (text) => ({ msgtype: "text", text: { content: plainText(text) } }),
  WECOM: (text) => ({ msgtype: "text", text: { content: plainText(text) } }),
  FEISHU: (text) => ({ msg_type: "post", content: { post: { en_us: feishuPost(text) } } }),
  LARK: (text) => ({ msg_type: "post", content: { post: { en_us: feishuPost(text) } } }),
  TELEGRAM: (text, chatId) => ({ chat_id: chatId, text: plainText(text), link_preview_options: { is_disabled: true } }),
};

function adaptiveCard(text: MessageText): object {
  const block = (line: string, bold = false) => ({ type: "TextBlock", text: markdownEscape(line), wrap: true, ...(bold ? { weight: "Bolder" } : {}) });
  return {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.4",
    body: [block(text.headline, true), ...text.lines.map((line) => block(line))],
    actions: text.link ? [{ type: "Action.OpenUrl", title: "Open", url: text.link }] : [],
  };
}

function feishuPost(text: MessageText): object {
  const lines = text.lines.map((line) => [{ tag: "text", text: line }]);
  return { title: text.headline, content: text.link ? [...lines, [{ tag: "a", text: "Open", href: text.link }]] : lines };
}

/** The JSON body a vendor's incoming webhook takes for this notification. */
export function vendorMessage(type: Exclude<WebhookType, "GENERIC">, payload: NotificationPayload, url: URL): object {
  return FORMATS[type](messageText(payload), url.searchParams.get("chat_id") ?? "");
}
