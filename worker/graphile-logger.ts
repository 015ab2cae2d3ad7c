// graphile-worker's log lines on our logger, with the job's scope as fields.
import { Logger as GraphileLogger, type LogLevel } from "graphile-worker";
import type { Logger } from "../shared/platform/logger.ts";

const LEVELS: Record<LogLevel, "error" | "warn" | "info" | "debug"> = { error: "error", warning: "warn", info: "info", debug: "debug" };

export function createGraphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const fields = { job: scope.jobId, task: scope.taskIdentifier, worker_id: scope.workerId, ...(meta?.error ? { error: meta.error } : {}) };
    logger[LEVELS[level]](fields, message);
  });
}
