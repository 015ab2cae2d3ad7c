// maintenance.cleanupSignInState: deletes the sign-in state nothing reads any
// more (identity's deleteSpentSignInState says which) and logs the counts.
import type { Task } from "graphile-worker";
import { deleteSpentSignInState } from "../../shared/identity/index.ts";
import { type Db, parseJobPayload } from "../../shared/platform/index.ts";

export function cleanupSignInState(db: Db): Task {
  return async (raw, helpers) => {
    parseJobPayload("maintenance.cleanupSignInState", raw);
    const deleted = await deleteSpentSignInState(db);
    const summary = Object.entries(deleted).map(([kind, count]) => `${count} ${kind}`).join(", ");
    helpers.logger.info(`deleted expired sign-in state: ${summary}`);
  };
}
