// maintenance.cleanupJobs: removes permanently failed jobs once they are old.
import type { Task } from "graphile-worker";
import { type Db, deletePermafailedJobs, parseJobPayload } from "../../shared/platform/index.ts";

export function cleanupJobs(db: Db): Task {
  return async (raw, helpers) => {
    const { permafailedOlderThanDays } = parseJobPayload("maintenance.cleanupJobs", raw);
    const deleted = await deletePermafailedJobs(db, permafailedOlderThanDays);
    helpers.logger.info(`deleted ${deleted} permanently failed jobs older than ${permafailedOlderThanDays} days`);
  };
}
