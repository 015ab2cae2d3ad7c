// Periodic runners that only the leader runs (contract §15.7): every hour it
// schedules the clean-ups (the job queue, expired sign-in state, the query
// history and the notification delivery log past their retention), each at
// most once at a time (job keys); on election and every 15 minutes, a sync
// of every active instance (§9.3); on election and every 10 s, a pass of the
// task-run reconciler (§12.6), one at a time. Each run of a runner has a correlation id of its own, on its log
// lines and on the jobs it enqueues.
import { enqueueEveryInstanceSync } from "../shared/inventory/index.ts";
import { addJob, type Logger, withNewCorrelationId } from "../shared/platform/index.ts";
import { RECONCILE_EVERY_MS, reconcileTaskRuns } from "../shared/change/index.ts";
import type { TaskDeps } from "./task-list.ts";

const CLEANUP_EVERY_MS = 60 * 60 * 1000;
const PERMAFAILED_RETENTION_DAYS = 30;
const INSTANCE_SYNC_EVERY_MS = 15 * 60 * 1000;

/** Starts the leader's runners; resolves to the function that stops them. */
export async function startLeaderRunners(deps: TaskDeps, logger: Logger): Promise<() => Promise<void>> {
  const { db } = deps;
  const once = { jobKeyMode: "unsafe_dedupe" } as const;
  const scheduleCleanup = () =>
    withNewCorrelationId(() =>
      Promise.all([
        addJob(db, "maintenance.cleanupJobs", { permafailedOlderThanDays: PERMAFAILED_RETENTION_DAYS }, { ...once, jobKey: "maintenance.cleanupJobs" }),
        addJob(db, "maintenance.cleanupSignInState", {}, { ...once, jobKey: "maintenance.cleanupSignInState" }),
        addJob(db, "maintenance.cleanupQueryHistory", {}, { ...once, jobKey: "maintenance.cleanupQueryHistory" }),
        addJob(db, "maintenance.cleanupNotificationDeliveries", {}, { ...once, jobKey: "maintenance.cleanupNotificationDeliveries" }),
      ]).catch((error: unknown) => logger.warn({ error }, "could not schedule the clean-ups")),
    );
  const scheduleSyncs = () =>
    withNewCorrelationId(() => enqueueEveryInstanceSync(db).catch((error: unknown) => logger.warn({ error }, "could not schedule the instance syncs")));
  await scheduleCleanup();
  await scheduleSyncs();
  const timer = setInterval(() => void scheduleCleanup(), CLEANUP_EVERY_MS);
  const syncTimer = setInterval(() => void scheduleSyncs(), INSTANCE_SYNC_EVERY_MS);
  let reconciling: Promise<void> | undefined;
  const reconcile = () => {
    reconciling ??= withNewCorrelationId(() =>
      reconcileTaskRuns({ ...deps, logger }).catch((error: unknown) => logger.warn({ error }, "task-run reconciler pass failed")),
    ).finally(() => (reconciling = undefined));
  };
  reconcile();
  const reconcileTimer = setInterval(reconcile, RECONCILE_EVERY_MS);
  return async () => {
    clearInterval(timer);
    clearInterval(syncTimer);
    clearInterval(reconcileTimer);
    await reconciling;
  };
}
