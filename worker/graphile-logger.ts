// graphile-worker's log lines on our logger, with the job's scope as fields.
// Its one line per job that succeeded ("Completed task …", marked success
// in its meta) is debug: at the
// rates a rollout runs jobs it would drown the log (and cost a write per
// job); a job that fails is still an error.
import { Logger as GraphileLogger, type LogLevel } from "graphile-worker";
import type { Logger } from "../shared/platform/index.ts";

const LEVELS: Record<LogLevel, "error" | "warn" | "info" | "debug"> = { error: "error", warning: "warn", info: "info", debug: "debug" };

export function createGraphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const job = meta?.job as { id?: string; task_identifier?: string } | undefined;
    const fields = { job: scope.jobId ?? job?.id, task: scope.taskIdentifier ?? job?.task_identifier, worker_id: scope.workerId, ...(meta?.error ? { error: meta.error } : {}) };
    logger[meta?.success === true ? "debug" : LEVELS[level]](fields, message);
  });
}
