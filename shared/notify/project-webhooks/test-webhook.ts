// ProjectService.TestWebhook: a test message (event `test`), in the
// webhook's format and signed as real ones are, answering what the receiver
// said, or why it said nothing. Nothing enters the delivery log.
import { randomUUID } from "node:crypto";
import type { CommonQueryMethods } from "slonik";
import type { SecretBox } from "../../platform/index.ts";
import type { NotificationPayload } from "../payload.ts";
import { TEST_EVENT } from "../test-monitoring.ts";
import { postJson } from "../webhook-post.ts";
import { requestTo } from "./project-webhook-channel.ts";
import { vendorOutcome } from "./vendor-answers.ts";
import { getProjectWebhook } from "./webhooks.ts";

export interface WebhookTestAnswer {
  /** The receiver's HTTP status; 0 when it did not answer. */
  status: number;
  body: string;
  /** Why it is not a success; "" when it is. */
  error: string;
}

export async function testProjectWebhook(db: CommonQueryMethods, secrets: SecretBox, allowPrivate: boolean, name: string, actor: string): Promise<WebhookTestAnswer> {
  const row = await getProjectWebhook(db, name);
  const payload: NotificationPayload = { event: TEST_EVENT, time: new Date().toISOString(), actor, resource: name, title: row.title, link: "", detail: {} };
  const request = requestTo(row, payload, randomUUID(), secrets);
  try {
    const answer = await postJson(request.url, request.body, request.headers, { allowPrivate });
    const outcome = vendorOutcome(row.type, answer);
    return { status: answer.status, body: answer.body, error: outcome.kind === "sent" ? "" : outcome.error };
  } catch (error) {
    return { status: 0, body: "", error: (error as Error).message };
  }
}
