// SettingService.TestMonitoringSetting: a test message, signed as real ones
// are, to each webhook of the stored MONITORING setting, answering what each
// receiver said (or why nothing was said). Nothing enters the delivery log.
import { randomUUID } from "node:crypto";
import type { CommonQueryMethods } from "slonik";
import { failedPrecondition, type SecretBox } from "../platform/index.ts";
import { monitoringSetting, postToWebhook, webhooksFor, type Webhook } from "./monitoring.ts";
import { shownUrl } from "./payload.ts";
import { outcomeOf } from "./retry-policy.ts";

export const TEST_EVENT = "test";

export interface WebhookTestResult {
  url: string;
  /** The receiver's HTTP status; 0 when it did not answer. */
  status: number;
  body: string;
  error: string;
}

export async function testMonitoringWebhooks(db: CommonQueryMethods, secrets: SecretBox, allowPrivate: boolean, actor: string): Promise<WebhookTestResult[]> {
  const hooks = webhooksFor(await monitoringSetting(db));
  if (hooks.length === 0) throw failedPrecondition("settings/MONITORING has no webhook to test");
  const body = JSON.stringify({ event: TEST_EVENT, time: new Date().toISOString(), actor, resource: "settings/MONITORING", title: "Test message", link: "", detail: {} });
  return Promise.all(hooks.map((hook) => testOne(hook, body, secrets, allowPrivate)));
}

async function testOne(hook: Webhook, body: string, secrets: SecretBox, allowPrivate: boolean): Promise<WebhookTestResult> {
  const url = shownUrl(hook.url);
  try {
    const answer = await postToWebhook(hook, { event: TEST_EVENT, deliveryId: randomUUID(), body }, secrets, allowPrivate);
    return { url, status: answer.status, body: answer.body, error: outcomeOf(answer).kind === "sent" ? "" : `HTTP ${answer.status}` };
  } catch (error) {
    return { url, status: 0, body: "", error: (error as Error).message };
  }
}
