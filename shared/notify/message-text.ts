// What a person reads of a notification (IM and e-mail): a headline naming
// the event and its title, who did it, the reason when there is one (a
// rejection's comment, a failed run's error) and the deep link. The text is
// plain; each channel escapes it for its own markup (slackText, htmlText).
import type { NotificationPayload } from "./payload.ts";

const HEADLINES: Record<string, string> = {
  "issue.created": "Issue created",
  "issue.approvalRequested": "Approval requested",
  "issue.approved": "Issue approved",
  "issue.rejected": "Issue rejected",
  "issue.commented": "New comment",
  "rollout.stageStarted": "Rollout stage started",
  "taskRun.failed": "Task run failed",
  "rollout.done": "Rollout done",
  "rollout.failed": "Rollout failed",
  "emergencyPause.changed": "Emergency pause changed",
  "user.locked": "User locked",
  test: "Test message",
};

export interface MessageText {
  /** One line: the event and the title (an e-mail's subject). */
  headline: string;
  /** The lines under it, the link last. */
  lines: string[];
  link: string;
}

export function messageText(payload: NotificationPayload): MessageText {
  const headline = `${HEADLINES[payload.event] ?? payload.event}: ${oneLine(payload.title)}`;
  const lines = [`${payload.resource} · by ${payload.actor}`];
  const reason = reasonOf(payload.event, payload.detail);
  if (reason) lines.push(reason);
  return { headline, lines, link: payload.link };
}

/** The whole message as plain text. */
export function plainText(text: MessageText): string {
  return [text.headline, ...text.lines, ...(text.link ? [text.link] : [])].join("\n");
}

/** Slack's mrkdwn: &, < and > escaped in what users wrote, the headline bold, the link as a link. */
export function slackText(text: MessageText): string {
  const escape = (s: string) => s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;");
  const link = text.link ? [`<${escape(text.link)}|Open>`] : [];
  return [`*${escape(text.headline)}*`, ...text.lines.map(escape), ...link].join("\n");
}

/** HTML (Teams): every piece escaped, the link as an anchor. */
export function htmlText(text: MessageText): string {
  const link = text.link ? [`<a href="${htmlEscape(text.link)}">${htmlEscape(text.link)}</a>`] : [];
  return [`<b>${htmlEscape(text.headline)}</b>`, ...text.lines.map(htmlEscape), ...link].join("<br>");
}

function htmlEscape(s: string): string {
  return s.replace(/&/g, "&amp;").replace(/</g, "&lt;").replace(/>/g, "&gt;").replace(/"/g, "&quot;").replace(/'/g, "&#39;");
}

/** A rejection's comment or a failed run's error (issue.commented's detail names its comment, not its text). */
function reasonOf(event: string, detail: object): string | undefined {
  const { comment, error } = detail as { comment?: unknown; error?: unknown };
  const reason = event === "issue.rejected" ? comment : event === "taskRun.failed" ? error : undefined;
  return typeof reason === "string" && reason ? oneLine(reason).slice(0, 500) : undefined;
}

function oneLine(s: string): string {
  return s.replace(/\s+/g, " ").trim();
}
