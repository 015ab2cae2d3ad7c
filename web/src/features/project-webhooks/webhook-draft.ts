// A project webhook as its form edits it (contract §19.3), and what a save
// sends: the URL and the secret are input-only, so the form starts them
// empty and an empty one means "keep what is stored"; an update names only
// the fields that changed.
import type { MessageInitShape } from "@bufbuild/protobuf";
import { type Webhook, Webhook_Type, type WebhookSchema } from "@gen/svc/v1/project_webhook_pb.js";

/** The events of a project (contract §16.2); none chosen means all of them. */
export const PROJECT_EVENTS = [
  "issue.created",
  "issue.approvalRequested",
  "issue.approved",
  "issue.rejected",
  "issue.commented",
  "rollout.stageStarted",
  "taskRun.failed",
  "rollout.done",
  "rollout.failed",
] as const;

export const TYPE_LABELS: ReadonlyMap<Webhook_Type, string> = new Map([
  [Webhook_Type.GENERIC, "Generic (signed JSON)"],
  [Webhook_Type.SLACK, "Slack"],
  [Webhook_Type.DISCORD, "Discord"],
  [Webhook_Type.TEAMS, "Microsoft Teams"],
  [Webhook_Type.DINGTALK, "DingTalk"],
  [Webhook_Type.FEISHU, "Feishu"],
  [Webhook_Type.LARK, "Lark"],
  [Webhook_Type.WECOM, "WeCom"],
  [Webhook_Type.TELEGRAM, "Telegram"],
]);

/** The types whose messages are signed with a secret. */
export const SIGNING_TYPES: ReadonlySet<Webhook_Type> = new Set([Webhook_Type.GENERIC, Webhook_Type.DINGTALK, Webhook_Type.FEISHU, Webhook_Type.LARK]);

export interface WebhookDraft {
  title: string;
  type: Webhook_Type;
  /** Empty: keep the stored URL (required for a new webhook). */
  url: string;
  /** Empty: keep the stored secret. */
  secret: string;
  removeSecret: boolean;
  events: string[];
}

type WebhookInit = MessageInitShape<typeof WebhookSchema>;

export function draftOf(webhook: Webhook | undefined): WebhookDraft {
  return { title: webhook?.title ?? "", type: webhook?.type ?? Webhook_Type.GENERIC, url: "", secret: "", removeSecret: false, events: [...(webhook?.events ?? [])] };
}

/** A new webhook's fields; a secret only for a type that signs. */
export function newWebhookOf(draft: WebhookDraft): WebhookInit {
  const secret = SIGNING_TYPES.has(draft.type) && draft.secret ? { secret: draft.secret } : {};
  return { title: draft.title.trim(), type: draft.type, url: draft.url.trim(), events: draft.events, ...secret };
}

/** The update of `stored` the draft asks for: the changed fields and their mask paths (empty when nothing changed). */
export function updateOf(stored: Webhook, draft: WebhookDraft): { webhook: WebhookInit; paths: string[] } {
  const webhook: WebhookInit = { name: stored.name, etag: stored.etag };
  const paths: string[] = [];
  // The fields a save may change are one word each: their names are their mask paths.
  const change = (fields: Partial<WebhookInit>) => {
    Object.assign(webhook, fields);
    paths.push(...Object.keys(fields));
  };
  const title = draft.title.trim();
  if (title !== stored.title) change({ title });
  if (draft.type !== stored.type) change({ type: draft.type });
  if (draft.url.trim()) change({ url: draft.url.trim() });
  const signs = SIGNING_TYPES.has(draft.type);
  // "" removes a stored secret: asked for, or the new type does not sign.
  if (signs && draft.secret && !draft.removeSecret) change({ secret: draft.secret });
  else if (stored.secretSet && (draft.removeSecret || !signs)) change({ secret: "" });
  if (!sameEvents(draft.events, stored.events)) change({ events: draft.events });
  return { webhook, paths };
}

function sameEvents(a: readonly string[], b: readonly string[]): boolean {
  return a.length === b.length && a.every((event) => b.includes(event));
}

/** The events a webhook takes, as its list shows them. */
export function eventsText(events: readonly string[]): string {
  return events.length === 0 ? "every event" : events.join(", ");
}
