// With enable_audit_log_stdout, every committed audit record is also written
// to standard output as one JSON line {"audit": …}, apart from operational
// logs (contract §8.4; specification Events rule 2). Mirroring is best
// effort: it runs after the call's transaction committed, so a failure here
// (the settings unreadable, stdout closed) is logged and never changes the
// call's outcome.
import type { Logger } from "../../platform/index.ts";
import type { SettingReader } from "../settings/setting-cache.ts";
import { readWorkspaceProfile } from "../settings/workspace-profile.ts";
import { auditRecordJson } from "./audit-json.ts";
import type { AuditRecord } from "./audit.ts";

/** Publishes records whose transaction has committed; never throws (failures go to `logger`). */
export type AuditPublisher = (records: readonly AuditRecord[], logger: Logger) => Promise<void>;

export function createAuditMirror(settings: SettingReader, write: (line: string) => void = (line) => process.stdout.write(line)): AuditPublisher {
  return async (records, logger) => {
    try {
      if (records.length === 0 || !(await readWorkspaceProfile(settings)).enableAuditLogStdout) return;
      write(records.map((record) => `${JSON.stringify({ audit: auditRecordJson(record) })}\n`).join(""));
    } catch (error) {
      logger.error({ error, auditLogs: records.map((r) => `auditLogs/${r.id}`) }, "could not mirror committed audit records to stdout");
    }
  };
}
