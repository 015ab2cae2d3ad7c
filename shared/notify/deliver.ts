// One attempt at a delivery (a notify.deliver job): claim the row, send
// through its channel, record the outcome — SENT; PENDING with the next
// attempt's job after the back-off; FAILED when final or out of attempts —
// and count it in svc_notification_deliveries_total{channel,status} (status
// SENT, RETRY or FAILED) and, once sent, the time since the event.
import { type Db, type Metrics, type SecretBox, withTransaction } from "../platform/index.ts";
import { claimDelivery, type ClaimedDelivery, findDelivery, recordFailure, recordSent } from "./delivery.store.ts";
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

export async function deliverNotification(deps: DeliverDeps, id: number): Promise<void> {
  const delivery = await claimDelivery(deps.db, id, LEASE_MS);
  if (!delivery) return refuseWhileLeased(deps.db, id);
  const channel = CHANNELS.find((c) => c.name === delivery.channel);
  const outcome: AttemptOutcome = channel
    ? await channel.send(delivery, { db: deps.db, secrets: deps.secrets, allowPrivate: deps.allowPrivate })
    : { kind: "failed", error: `no channel ${delivery.channel}` };
  await record(deps, id, delivery, outcome);
}

/** A PENDING delivery another attempt holds: the job fails, and the queue tries it again once the lease may have lapsed. */
async function refuseWhileLeased(db: Db, id: number): Promise<void> {
  if ((await findDelivery(db, id))?.status === "PENDING") throw new Error(`notification delivery ${id} is being sent by another attempt`);
}

async function record(deps: DeliverDeps, id: number, delivery: ClaimedDelivery, outcome: AttemptOutcome): Promise<void> {
  const count = (status: string) => deps.metrics.notificationDeliveries.inc({ channel: delivery.channel, status });
  if (outcome.kind === "sent") {
    await recordSent(deps.db, id);
    count("SENT");
    deps.metrics.notificationDeliveryDelay.observe({ channel: delivery.channel }, (Date.now() - delivery.eventTime.getTime()) / 1000);
    return;
  }
  const retry = outcome.kind === "retry" && delivery.attempts < MAX_ATTEMPTS;
  const retryAt = retry ? new Date(Date.now() + (outcome.waitMs ?? backoffMs(delivery.attempts))) : undefined;
  await withTransaction(deps.db, (tx) => recordFailure(tx, id, outcome.error, retryAt));
  count(retry ? "RETRY" : "FAILED");
}
