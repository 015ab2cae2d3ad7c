// graphile-worker's log lines on our logger, with the job's scope as fields.
// Its one line per job that succeeded ("Completed task …") is debug: at the
// rates a rollout runs jobs it would drown the log (and cost a write per
// job); a job that fails is still an error.
import { Logger as GraphileLogger, type LogLevel } from "graphile-worker";
import type { Logger } from "../shared/platform/logger.ts";

const LEVELS: Record<LogLevel, "error" | "warn" | "info" | "debug"> = { error: "error", warning: "warn", info: "info", debug: "debug" };

export function createGraphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const fields = { job: scope.jobId, task: scope.taskIdentifier, worker_id: scope.workerId, ...(meta?.error ? { error: meta.error } : {}) };
    const perJob = level === "info" && scope.jobId !== undefined;
    logger[perJob ? "debug" : LEVELS[level]](fields, message);
  });
}
