// One attempt at each delivery of a notify.deliver job — the first attempts
// of a few of a transaction's deliveries, or the next of one: claim the rows, send
// each through its channel, all at once and sharing their reads (a setting,
// a project's webhooks), and record the outcomes — SENT, in one statement;
// PENDING with the next attempt's job after the back-off; FAILED when final
// or out of attempts — counting each in
// svc_notification_deliveries_total{channel,status} (status SENT, RETRY or
// FAILED) and, once sent, the time since the event. A delivery the job finds
// under a lease — another attempt sends it, or one ended without recording
// its outcome (a crashed worker) — gets a job of its own for when the lease
// ends.
import { type Db, type JobPayload, type Metrics, type SecretBox, withTransaction } from "../platform/index.ts";
import { type SendContext, sendContext } from "./channel.ts";
import { claimDeliveries, type ClaimedDelivery, deferHeld, recordFailure, recordSent } from "./delivery.store.ts";
import { CHANNELS } from "./publish.ts";
import { type AttemptOutcome, backoffMs, MAX_ATTEMPTS } from "./retry-policy.ts";
import { ATTEMPT_TIMEOUT_MS } from "./webhook-post.ts";

/** Longer than an attempt can take: a lease still held after it is a dead worker's. */
const LEASE_MS = ATTEMPT_TIMEOUT_MS + 20_000;

export interface DeliverDeps {
  db: Db;
  secrets: SecretBox;
  metrics: Metrics;
  /** --webhook-allow-private. */
  allowPrivate: boolean;
}

/** A job's deliveries: the first attempts of `deliveryIds`, or the next attempt of `deliveryId`. */
export async function deliverNotifications(deps: DeliverDeps, job: JobPayload<"notify.deliver">): Promise<void> {
  const [ids, firstOnly] = "deliveryIds" in job ? [job.deliveryIds, true] : [[job.deliveryId], false];
  const claimed = await claimDeliveries(deps.db, ids, firstOnly, LEASE_MS);
  const context = sendContext(deps.db, deps.secrets, deps.allowPrivate);
  const outcomes = await Promise.all(claimed.map((delivery) => attempt(delivery, context)));
  await record(deps, claimed, outcomes);
  if (claimed.length < ids.length) await deferHeld(deps.db, ids.filter((id) => !claimed.some((c) => c.id === id)));
}

/** The channel's outcome; a read that fails on the way is tried again like a send. */
async function attempt(delivery: ClaimedDelivery, context: SendContext): Promise<AttemptOutcome> {
  const channel = CHANNELS.find((c) => c.name === delivery.channel);
  if (!channel) return { kind: "failed", error: `no channel ${delivery.channel}` };
  return channel.send(delivery, context).catch((error: unknown) => ({ kind: "retry", error: (error as Error).message }));
}

async function record(deps: DeliverDeps, claimed: readonly ClaimedDelivery[], outcomes: readonly AttemptOutcome[]): Promise<void> {
  const count = (delivery: ClaimedDelivery, status: string) => deps.metrics.notificationDeliveries.inc({ channel: delivery.channel, status });
  const sent = claimed.filter((_, i) => outcomes[i]!.kind === "sent");
  if (sent.length > 0) await recordSent(deps.db, sent.map((d) => d.id));
  for (const delivery of sent) {
    count(delivery, "SENT");
    deps.metrics.notificationDeliveryDelay.observe({ channel: delivery.channel }, (Date.now() - delivery.eventTime.getTime()) / 1000);
  }
  for (const [i, delivery] of claimed.entries()) {
    const outcome = outcomes[i]!;
    if (outcome.kind === "sent") continue;
    const retry = outcome.kind === "retry" && delivery.attempts < MAX_ATTEMPTS;
    const retryAt = retry ? new Date(Date.now() + (outcome.waitMs ?? backoffMs(delivery.attempts))) : undefined;
    await withTransaction(deps.db, (tx) => recordFailure(tx, delivery.id, outcome.error, retryAt));
    count(delivery, retry ? "RETRY" : "FAILED");
  }
}
