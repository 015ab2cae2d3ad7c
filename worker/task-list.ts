// The explicit task list: every job of the catalogue and its handler, each
// run under the correlation id its payload carries (the request, job or
// leader run that enqueued it; a new one when it carries none), so that every
// line the job logs, and every job it enqueues, carries it (contract §15.5).
import { randomUUID } from "node:crypto";
import type { Task } from "graphile-worker";
import { type Db, jobCorrelationId, type JobName, type Logger, type Metrics, type SecretBox, withLogFields } from "../shared/platform/index.ts";
import type { CancelWatch, LockConnections, RolloutFollowUps } from "../shared/change/index.ts";
import type { SettingReader } from "../shared/governance/index.ts";
import { cleanupJobs } from "./tasks/cleanup-jobs.ts";
import { cleanupNotificationDeliveries } from "./tasks/cleanup-notification-deliveries.ts";
import { cleanupQueryHistory } from "./tasks/cleanup-query-history.ts";
import { cleanupSignInState } from "./tasks/cleanup-sign-in-state.ts";
import { notifyDeliverTask } from "./tasks/notify-deliver.ts";
import { planCheckTask } from "./tasks/plan-check.ts";
import { syncInstanceTask } from "./tasks/sync-instance.ts";
import { taskRunExecuteTask } from "./tasks/task-run-execute.ts";

/** What the tasks work with. */
export interface TaskDeps {
  db: Db;
  /** Opens the credentials jobs connect with (data-source passwords, webhook secrets). */
  secrets: SecretBox;
  metrics: Metrics;
  logger: Logger;
  /** --webhook-allow-private: notifications may reach internal addresses. */
  webhookAllowPrivate: boolean;
}

/** What the worker process adds: the metadata store's URL (connections of their own), its task-run cancel watch, lock connections, rollout follow-ups and settings cache. */
export interface WorkerServices {
  url: string;
  cancels: CancelWatch;
  lockConnections: LockConnections;
  followUps: RolloutFollowUps;
  settings: SettingReader;
}

export function createTaskList(deps: TaskDeps & WorkerServices): Record<JobName, Task> {
  const tasks: Record<JobName, Task> = {
    "maintenance.cleanupJobs": cleanupJobs(deps.db),
    "maintenance.cleanupSignInState": cleanupSignInState(deps.db),
    "maintenance.cleanupQueryHistory": cleanupQueryHistory(deps.db, deps.settings),
    "maintenance.cleanupNotificationDeliveries": cleanupNotificationDeliveries(deps.db, deps.settings),
    "instance.sync": syncInstanceTask(deps.db, deps.secrets),
    "plan.check": planCheckTask(deps),
    "taskRun.execute": taskRunExecuteTask(deps),
    "notify.deliver": notifyDeliverTask(deps),
  };
  return Object.fromEntries(Object.entries(tasks).map(([name, task]) => [name, underItsCorrelationId(task)])) as Record<JobName, Task>;
}

function underItsCorrelationId(task: Task): Task {
  return (payload, helpers) => withLogFields({ correlation_id: jobCorrelationId(payload) ?? randomUUID() }, () => task(payload, helpers));
}
