// Change notices for watchers (contract §12.3, WatchRollout and WatchIssue):
// every write that changes an issue or a rollout (or one of its stages, tasks
// or task runs) announces the resource's name on one channel, in the writing
// transaction, so the notice is delivered exactly when the change commits.
// PostgreSQL delivers a transaction's notices at its commit whenever they are
// sent, so a use case's transaction sends all of its own in one statement at
// the end (commitBatch).
import { sql } from "slonik";
import { preparedCommand } from "../db.ts";
import { commitBatch } from "../transaction.ts";

export const CHANGE_CHANNEL = "svc_change";

/** Announces that the issue or rollout named changed (delivered at commit). */
export const noticeChange = commitBatch<string>(async (tx, names) => {
  await tx.query(preparedCommand("change_notice.notices")`select pg_notify(${CHANGE_CHANNEL}, name) from unnest(${sql.array(names, "text")}) as name`);
});
