// Every background job: its name and payload schema. Producers enqueue only
// names declared here; the worker parses each payload at the door.
import { z } from "zod";

/** The most deliveries one notify.deliver job attempts (they are sent at once). */
export const NOTIFY_DELIVERIES_PER_JOB = 10;

export const jobCatalog = {
  /** Deletes finished bookkeeping of the job queue (contract §15.7, leader-scheduled). */
  "maintenance.cleanupJobs": z.object({
    /** Permanently failed jobs older than this many days are deleted. */
    permafailedOlderThanDays: z.number().int().positive(),
  }),
  /** Deletes expired sign-in state: sessions, links, codes, pending sign-ins, old counters (leader-scheduled). */
  "maintenance.cleanupSignInState": z.object({}),
  /** Deletes the query history past WORKSPACE_PROFILE.query_history_retention (contract §19.1, leader-scheduled). */
  "maintenance.cleanupQueryHistory": z.object({}),
  /** Deletes the sent and failed notification deliveries past WORKSPACE_PROFILE.notification_delivery_retention (contract §16.1, leader-scheduled). */
  "maintenance.cleanupNotificationDeliveries": z.object({}),
  /** Syncs one instance: its databases and their schema metadata (contract §9.3). One queue per instance. */
  "instance.sync": z.object({ instanceId: z.string() }),
  /** Runs the checks of one plan check run (contract §10.2); one job per plan at a time (job key). */
  "plan.check": z.object({ runId: z.number().int().positive() }),
  /** Executes one task run (contract §12.4); enqueued in the transaction that makes it PENDING, job key taskRun:<id>. */
  "taskRun.execute": z.object({ taskRunId: z.number().int().positive() }),
  /**
   * Notification deliveries (contract §16.1): the first attempts of a few of
   * a transaction's deliveries (`deliveryIds`, no job key), or the next
   * attempt of one (`deliveryId`, job key notify:<id>), enqueued by the
   * attempt before it or by a retry.
   */
  "notify.deliver": z.union([
    z.object({ deliveryIds: z.array(z.number().int().positive()).min(1).max(NOTIFY_DELIVERIES_PER_JOB) }),
    z.object({ deliveryId: z.number().int().positive() }),
  ]),
} as const;

/**
 * Besides its own fields, every payload may carry the correlation id of the
 * work that enqueued it (contract §15.5: a request's, a job's, a leader
 * run's); the worker runs the job under it. The schemas above leave it out.
 */
export const CORRELATION_ID_FIELD = "correlationId";
const carried = z.object({ [CORRELATION_ID_FIELD]: z.string().min(1).max(128) });

/** The correlation id a payload carries, if any. */
export function jobCorrelationId(payload: unknown): string | undefined {
  const parsed = carried.safeParse(payload);
  return parsed.success ? parsed.data[CORRELATION_ID_FIELD] : undefined;
}

/** A taskRun.execute job's key is this and the run's id: a run has at most one job waiting. */
export const TASK_RUN_JOB_KEY_PREFIX = "taskRun:";

export type JobName = keyof typeof jobCatalog;
export type JobPayload<N extends JobName> = z.infer<(typeof jobCatalog)[N]>;

export function parseJobPayload<N extends JobName>(name: N, payload: unknown): JobPayload<N> {
  return jobCatalog[name].parse(payload) as JobPayload<N>;
}
