// Change notices for watchers (contract §12.3, WatchRollout and WatchIssue):
// every write that changes an issue or a rollout (or one of its stages, tasks
// or task runs) announces the resource's name on one channel, in the writing
// transaction, so the notice is delivered exactly when the change commits.
import type { CommonQueryMethods } from "slonik";
import { preparedCommand } from "../db.ts";

export const CHANGE_CHANNEL = "svc_change";

/** Announces that the issue or rollout `name` changed (delivered at commit). */
export async function noticeChange(db: CommonQueryMethods, name: string): Promise<void> {
  await db.query(preparedCommand("change_notice.notice")`select pg_notify(${CHANGE_CHANNEL}, ${name})`);
}
