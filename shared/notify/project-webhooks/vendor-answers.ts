// What a vendor's answer means. Beyond the HTTP status (retry-policy.ts),
// DingTalk and WeCom answer 200 with a non-zero errcode, and Feishu/Lark with
// a non-zero code, when they refuse the message: final, except their rate
// limits, which are tried again. Telegram puts a 429's wait in its body.
import { type AttemptOutcome, outcomeOf } from "../retry-policy.ts";
import type { WebhookAnswer } from "../webhook-post.ts";
import type { WebhookType } from "./webhook.store.ts";

/** Codes that mean "too many messages, later": DingTalk's 130101, WeCom's 45009, Feishu/Lark's 11232. */
const RATE_LIMIT_CODES = new Set([130101, 45009, 11232]);

export function vendorOutcome(type: WebhookType, answer: WebhookAnswer): AttemptOutcome {
  const outcome = outcomeOf(answer);
  if (type === "TELEGRAM" && answer.status === 429 && outcome.kind === "retry" && outcome.waitMs === undefined) {
    const wait = Number((jsonOf(answer.body)?.["parameters"] as { retry_after?: unknown } | undefined)?.retry_after);
    return Number.isFinite(wait) ? { ...outcome, waitMs: wait * 1000 } : outcome;
  }
  if (outcome.kind !== "sent") return outcome;
  const code = refusalCode(type, answer.body);
  if (code === undefined) return outcome;
  const error = `the receiver answered HTTP ${answer.status} with error code ${code}: ${answer.body.slice(0, 200)}`;
  return RATE_LIMIT_CODES.has(code) ? { kind: "retry", error } : { kind: "failed", error };
}

/** Where each vendor that answers 200 to a refusal puts its error code. */
const CODE_FIELDS: Partial<Record<WebhookType, string>> = { DINGTALK: "errcode", WECOM: "errcode", FEISHU: "code", LARK: "code" };

/** The vendor's non-zero error code in a 2xx answer, if any. */
function refusalCode(type: WebhookType, body: string): number | undefined {
  const field = CODE_FIELDS[type];
  const code = field === undefined ? 0 : Number(jsonOf(body)?.[field] ?? 0);
  return code ? code : undefined;
}

function jsonOf(text: string): Record<string, unknown> | undefined {
  try {
    const value: unknown = JSON.parse(text);
    return value && typeof value === "object" ? (value as Record<string, unknown>) : undefined;
  } catch {
    return undefined;
  }
}
