// The MONITORING webhooks as the page edits them: a secret typed anew or, left
// empty, kept as stored (the server matches entries by URL, contract §7.4);
// events as a comma-separated list, empty for every event.
import type { MonitoringSetting } from "@gen/svc/v1/setting_integrations_pb.js";

export interface WebhookRow {
  url: string;
  secret: string;
  secretSet: boolean;
  events: string;
}

export function rowsOf(setting: MonitoringSetting): WebhookRow[] {
  return setting.webhooks.map((hook) => ({ url: hook.url ?? "", secret: "", secretSet: hook.secretSet === true, events: hook.events.join(", ") }));
}

export function webhooksOf(rows: readonly WebhookRow[]) {
  return rows.map((row) => ({
    url: row.url.trim(),
    secret: row.secret === "" ? undefined : row.secret,
    events: row.events.split(",").map((event) => event.trim()).filter(Boolean),
  }));
}
