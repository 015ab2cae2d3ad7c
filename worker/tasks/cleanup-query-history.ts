// maintenance.cleanupQueryHistory: deletes the SQL Editor's query history
// older than WORKSPACE_PROFILE.query_history_retention (contract §19.1).
import type { Task } from "graphile-worker";
import type { SettingReader } from "../../shared/governance/index.ts";
import { type Db, parseJobPayload } from "../../shared/platform/index.ts";
import { deleteExpiredQueryHistory } from "../../shared/sql-editor/index.ts";

export function cleanupQueryHistory(db: Db, settings: SettingReader): Task {
  return async (raw, helpers) => {
    parseJobPayload("maintenance.cleanupQueryHistory", raw);
    const deleted = await deleteExpiredQueryHistory(db, settings);
    helpers.logger.info(`deleted ${deleted} query history entries past their retention`);
  };
}
