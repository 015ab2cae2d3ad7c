// notify.deliver: the first attempts of a few notification deliveries, or the
// next attempt of one (contract §16.1); a failed attempt enqueues the next.
import type { Task } from "graphile-worker";
import { deliverNotifications } from "../../shared/notify/index.ts";
import { parseJobPayload } from "../../shared/platform/index.ts";
import type { TaskDeps } from "../task-list.ts";

export function notifyDeliverTask(deps: TaskDeps): Task {
  const deliver = { db: deps.db, secrets: deps.secrets, metrics: deps.metrics, allowPrivate: deps.webhookAllowPrivate };
  return async (raw) => {
    await deliverNotifications(deliver, parseJobPayload("notify.deliver", raw));
  };
}
