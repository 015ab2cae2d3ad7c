// The job runner: graphile-worker on its own pg pool (so that jobs finishing
// during shutdown are recorded), the explicit task list, and the leader runners.
import { run, type Runner } from "graphile-worker";
import pg from "pg";
import type { Db } from "../shared/platform/db.ts";
import { startLeaderElection, type Leadership } from "../shared/platform/leader.ts";
import type { Logger } from "../shared/platform/logger.ts";
import { createGraphileLogger } from "./graphile-logger.ts";
import { startLeaderRunners } from "./leader-runners.ts";
import { createTaskList, type TaskDeps } from "./task-list.ts";

const DEFAULT_CONCURRENCY = 5;

export interface WorkerDeps extends TaskDeps {
  url: string;
  concurrency?: number;
}

export interface Worker {
  leadership: Leadership;
  /** Finishes running jobs, records them, and releases the leader lock. */
  stop(): Promise<void>;
}

export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const logger = deps.logger.child({ component: "worker" });
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  // One connection per running job, plus graphile-worker's listener and its batch writes.
  const pool = new pg.Pool({ connectionString: deps.url, max: concurrency + 2, application_name: "svc worker" });
  pool.on("error", (error) => logger.warn({ error }, "job queue connection error"));
  pool.on("connect", (client) => client.on("error", (error) => logger.warn({ error }, "job queue client error")));
  const runner: Runner = await run({
    pgPool: pool,
    concurrency,
    noHandleSignals: true,
    crontab: "", // periodic work is scheduled by the leader runners
    taskList: createTaskList(deps),
    logger: createGraphileLogger(logger),
  });
  const leadership = startLeaderElection({ url: deps.url, logger, onElected: () => startLeaderRunners(deps.db, logger) });
  return {
    leadership,
    async stop() {
      await leadership.stop();
      await runner.stop();
      await pool.end();
    },
  };
}
