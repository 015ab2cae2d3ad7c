// notify.deliver: one attempt at one notification delivery (contract §16.1);
// the attempt itself enqueues the next one when it retries.
import type { Task } from "graphile-worker";
import { deliverNotification } from "../../shared/notify/index.ts";
import { parseJobPayload } from "../../shared/platform/index.ts";
import type { TaskDeps } from "../task-list.ts";

export function notifyDeliverTask(deps: TaskDeps): Task {
  const deliver = { db: deps.db, secrets: deps.secrets, metrics: deps.metrics, allowPrivate: deps.webhookAllowPrivate };
  return async (raw) => {
    const { deliveryId } = parseJobPayload("notify.deliver", raw);
    await deliverNotification(deliver, deliveryId);
  };
}
