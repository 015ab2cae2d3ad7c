// The job runner: graphile-worker on its own pg pool (so that jobs finishing
// during shutdown are recorded), restarted when it stops by itself, with the
// explicit task list; the leader runners; and what the task runs need per
// process: the cancel watch, the lock connections, the follow-ups of their
// rollouts, the settings cache, and the presence locks of the job pools (so
// that the jobs of a dead worker or a stopped pool get unlocked, §12.6).
import { EventEmitter } from "node:events";
import { run, type ParsedCronItem, type TaskList, type WorkerEvents } from "graphile-worker";
import pg from "pg";
import { type Leadership, PoolPresence, startLeaderElection } from "../shared/platform/index.ts";
import { createCancelWatch, LockConnections, RolloutFollowUps } from "../shared/change/index.ts";
import { createSettingCache } from "../shared/governance/index.ts";
import { publishNotifications } from "../shared/notify/index.ts";
import { createGraphileLogger } from "./graphile-logger.ts";
import { startLeaderRunners } from "./leader-runners.ts";
import { superviseRunner, type SupervisedRunner } from "./runner-supervisor.ts";
import { createTaskList, type TaskDeps } from "./task-list.ts";

const DEFAULT_CONCURRENCY = 5;
/**
 * The notification deliveries' own runner (decision 0122): each delivery
 * mostly waits (its row's claim and outcome, one request), so more run at
 * once than other jobs, and a backlog or a hanging receiver never holds the
 * slots of task runs and checks.
 */
const DEFAULT_NOTIFY_CONCURRENCY = 10;
const NOTIFY_TASK = "notify.deliver";
/** Below the reconciler's grace for locked jobs of runs nobody executes (reconcile.ts). */
const LOCAL_QUEUE_TTL_MS = 10_000;

export interface WorkerDeps extends TaskDeps {
  url: string;
  concurrency?: number;
  /** Notification deliveries run at once, apart from the other jobs. */
  notifyConcurrency?: number;
  /** --external-url, for the links of the notifications its jobs cause (undefined: WORKSPACE_PROFILE's). */
  externalUrl: string | undefined;
}

export interface Worker {
  leadership: Leadership;
  /** Finishes running jobs, records them, and releases the leader lock. */
  stop(): Promise<void>;
}

export async function startWorker(deps: WorkerDeps): Promise<Worker> {
  const logger = deps.logger.child({ component: "worker" });
  const stopPublishing = publishNotifications({ externalUrlFlag: deps.externalUrl });
  const concurrency = deps.concurrency ?? DEFAULT_CONCURRENCY;
  const notifyConcurrency = deps.notifyConcurrency ?? DEFAULT_NOTIFY_CONCURRENCY;
  // One connection per running job, plus each runner's listener and its batch writes.
  // The queue's own bookkeeping (fetching, completing, failing jobs) commits
  // without waiting for its WAL flush: a job whose completion a crash of the
  // store loses runs again and finds its task run final (every task checks
  // the state it works on), so durability there would buy nothing and cost
  // two flushes per job. The jobs themselves are added in the application's
  // transactions, which stay synchronous.
  const pool = new pg.Pool({ connectionString: deps.url, max: concurrency + notifyConcurrency + 4, application_name: "svc worker", options: "-c synchronous_commit=off" });
  // graphile-worker listens for the pool's errors only while a runner runs;
  // the pool outlives its runners (a store outage stops them until the
  // supervisor replaces them), and an idle client's error with no listener
  // would end the process.
  pool.on("error", (error) => logger.warn({ error }, "job queue connection error"));
  pool.on("connect", (client) => client.on("error", (error) => logger.warn({ error }, "job queue client error")));
  const presence = await PoolPresence.open(deps.url, logger);
  const events: WorkerEvents = new EventEmitter();
  // Emitted when the pool is made, before it asks for a job.
  events.on("pool:create", ({ workerPool }) => presence.hold(workerPool.id));
  // Emitted when the pool has stopped, its running jobs ended.
  events.on("pool:release", ({ workerPool }) => presence.release(workerPool.id));
  const cancels = createCancelWatch(deps.url, deps.db, logger);
  const lockConnections = new LockConnections(deps.url);
  const followUps = new RolloutFollowUps(deps.db, logger);
  const settings = createSettingCache(deps.url, deps.db, logger);
  const taskList = createTaskList({ ...deps, cancels, lockConnections, followUps, settings });
  const { [NOTIFY_TASK]: deliver, ...otherTasks } = taskList;
  const graphileLogger = createGraphileLogger(logger);
  // No cron items: periodic work is scheduled by the leader runners (and an
  // empty list keeps graphile-worker from looking for a crontab file).
  const noCronItems: ParsedCronItem[] = [];
  // A runner fetches only the jobs of its own task list.
  const startRunner = (tasks: TaskList, slots: number) => () =>
    run(
      {
        pgPool: pool,
        concurrency: slots,
        noHandleSignals: true,
        taskList: tasks,
        logger: graphileLogger,
        events,
        // Completions (and failures) of jobs ending together are written in one
        // statement; a batch that cannot be written stops the runner, which the
        // supervisor replaces (unbatched, a failure that cannot be written is
        // an unhandled rejection, which ends the process). Jobs are fetched (and
        // locked) a few at a time, one more than run at once; a fetched job not
        // started within LOCAL_QUEUE_TTL_MS goes back.
        preset: {
          worker: { completeJobBatchDelay: 0, failJobBatchDelay: 0, localQueue: { size: slots + 1, ttl: LOCAL_QUEUE_TTL_MS } },
        },
      },
      undefined,
      noCronItems,
    );
  const runners: SupervisedRunner[] = [];
  try {
    runners.push(await superviseRunner(startRunner(otherTasks, concurrency), logger));
    runners.push(await superviseRunner(startRunner({ [NOTIFY_TASK]: deliver }, notifyConcurrency), logger));
  } catch (error) {
    await Promise.all(runners.map((runner) => runner.stop()));
    stopPublishing();
    await Promise.all([cancels.close(), settings.close(), presence.close(), lockConnections.close(), pool.end()]);
    throw error;
  }
  const leadership = startLeaderElection({ url: deps.url, logger, onElected: () => startLeaderRunners(deps, logger) });
  return {
    leadership,
    async stop() {
      await leadership.stop();
      await Promise.all(runners.map((runner) => runner.stop()));
      stopPublishing();
      await followUps.close();
      await cancels.close();
      await settings.close();
      await lockConnections.close();
      await presence.close();
      await pool.end();
    },
  };
}
