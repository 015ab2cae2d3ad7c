// A notification in each vendor's incoming-webhook format (contract §19.3).
// Text a user wrote (titles, comments, errors) is escaped for the format's
// markup — Slack's mrkdwn, Discord's and Teams' Markdown — or sent where no
// markup is read: the plain text of DingTalk, WeCom and Telegram, the
// structured elements of a Feishu/Lark post. GENERIC is not here: it gets
// the payload itself, signed (generic-webhook.ts).
import type { NotificationPayload } from "../payload.ts";
import type { WebhookType } from "./webhook.store.ts";

const HEADLINES: Record<string, string> = {
  "issue.created": "Issue created",
  "issue.approvalRequested": "Approval requested",
  "issue.approved": "Issue approved",
  "issue.rejected": "Issue rejected",
  "issue.commented": "New comment",
  "rollout.stageStarted": "Stage started",
  "taskRun.failed": "Task run failed",
  "rollout.done": "Rollout done",
  "rollout.failed": "Rollout failed",
  test: "Test message",
};

/** The parts every format shows, as plain text. */
interface Message {
  headline: string;
  title: string;
  actor: string;
  link: string;
  /** A rejection's comment or a task run's error, when there is one. */
  note: string;
}

/** The detail field each event's note comes from. */
const NOTES: Record<string, string> = { "issue.rejected": "comment", "taskRun.failed": "error" };

const NOTE_LENGTH = 500;

function messageOf(payload: NotificationPayload): Message {
  const field = NOTES[payload.event];
  const value = field === undefined ? undefined : (payload.detail as Record<string, unknown>)[field];
  const note = typeof value === "string" ? value : "";
  return {
    headline: HEADLINES[payload.event] ?? payload.event,
    title: payload.title,
    actor: payload.actor,
    link: payload.link,
    note: note.length > NOTE_LENGTH ? `${note.slice(0, NOTE_LENGTH)}…` : note,
  };
}

const slackEscape = (text: string) => text.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
/** CommonMark's punctuation escapes (Discord, Teams' TextBlocks). */
const markdownEscape = (text: string) => text.replace(/[\\`*_{}[\]()#+\-.!|~>]/g, "\\$&");

function plainText(m: Message): string {
  return [`${m.headline}: ${m.title}`, m.note, `by ${m.actor}`, m.link].filter(Boolean).join("\n");
}

const FORMATS: Record<Exclude<WebhookType, "GENERIC">, (m: Message, chatId: string) => object> = {
  SLACK: (m) => ({
    text: [`*${slackEscape(m.headline)}*: ${m.link ? `<${m.link}|${slackEscape(m.title)}>` : slackEscape(m.title)}`, m.note && `> ${slackEscape(m.note)}`, `by ${slackEscape(m.actor)}`]
      .filter(Boolean)
      .join("\n"),
  }),
  DISCORD: (m) => ({
    content: [`**${markdownEscape(m.headline)}**: ${m.link ? `[${markdownEscape(m.title)}](<${m.link}>)` : markdownEscape(m.title)}`, m.note && markdownEscape(m.note), `by ${markdownEscape(m.actor)}`]
      .filter(Boolean)
      .join("\n")
      .slice(0, 2000),
    // Nobody is pinged by what a user wrote (@everyone in a title).
    allowed_mentions: { parse: [] },
  }),
  TEAMS: (m) => ({
    type: "message",
    attachments: [{ contentType: "application/vnd.microsoft.card.adaptive", content: teamsCard(m) }],
  }),
  DINGTALK: (m) => ({ msgtype: "text", text: { content: plainText(m) } }),
  WECOM: (m) => ({ msgtype: "text", text: { content: plainText(m) } }),
  FEISHU: (m) => ({ msg_type: "post", content: { post: { en_us: feishuPost(m) } } }),
  LARK: (m) => ({ msg_type: "post", content: { post: { en_us: feishuPost(m) } } }),
  TELEGRAM: (m, chatId) => ({ chat_id: chatId, text: plainText(m), link_preview_options: { is_disabled: true } }),
};

function teamsCard(m: Message): object {
  const block = (text: string, bold = false) => ({ type: "TextBlock", text: markdownEscape(text), wrap: true, ...(bold ? { weight: "Bolder" } : {}) });
  return {
    $schema: "http://adaptivecards.io/schemas/adaptive-card.json",
    type: "AdaptiveCard",
    version: "1.4",
    body: [block(m.headline, true), block(m.title), ...(m.note ? [block(m.note)] : []), block(`by ${m.actor}`)],
    actions: m.link ? [{ type: "Action.OpenUrl", title: "Open", url: m.link }] : [],
  };
}

function feishuPost(m: Message): object {
  const title = m.link ? { tag: "a", text: m.title, href: m.link } : { tag: "text", text: m.title };
  const lines = [[title], ...(m.note ? [[{ tag: "text", text: m.note }]] : []), [{ tag: "text", text: `by ${m.actor}` }]];
  return { title: m.headline, content: lines };
}

/** The JSON body a vendor's incoming webhook takes for this notification. */
export function vendorMessage(type: Exclude<WebhookType, "GENERIC">, payload: NotificationPayload, url: URL): object {
  return FORMATS[type](messageOf(payload), url.searchParams.get("chat_id") ?? "");
}
