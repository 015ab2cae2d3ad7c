// graphile-worker's log lines on our logger, with the job's scope as fields
// (`job`, `job_name`; `task` is the contract's rollout task) and, on the lines
// it writes about a job after the job's own work (its end), the correlation
// id the job's payload carries. Its one line per job that succeeded
// ("Completed task …", marked success in its meta) is debug: at the rates a
// rollout runs jobs it would drown the log (and cost a write per job); a job
// that fails is still an error.
import { Logger as GraphileLogger, type LogLevel } from "graphile-worker";
import { jobCorrelationId, type Logger } from "../shared/platform/index.ts";

const LEVELS: Record<LogLevel, "error" | "warn" | "info" | "debug"> = { error: "error", warning: "warn", info: "info", debug: "debug" };

export function createGraphileLogger(logger: Logger): GraphileLogger {
  return new GraphileLogger((scope) => (level, message, meta) => {
    const job = meta?.job as { id?: string; task_identifier?: string; payload?: unknown } | undefined;
    const correlationId = jobCorrelationId(job?.payload);
    const fields = {
      job: scope.jobId ?? job?.id,
      job_name: scope.taskIdentifier ?? job?.task_identifier,
      worker_id: scope.workerId,
      ...(correlationId ? { correlation_id: correlationId } : {}),
      ...(meta?.error ? { error: meta.error } : {}),
    };
    logger[meta?.success === true ? "debug" : LEVELS[level]](fields, message);
  });
}
