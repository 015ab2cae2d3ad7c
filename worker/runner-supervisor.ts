// Keeps a graphile-worker runner running (contract §12.6). graphile-worker
// stops its runner by itself when it cannot record the end of a job (its
// batch of completions or failures fails once, as while the store restarts):
// the stopped runner takes no more jobs and leaves the ones it held locked by
// its pool. A new runner is started in its place, after a pause that grows
// while the store stays away; the stopped pool's jobs are unlocked by the
// reconciler once its presence lock is released (worker.ts).
import type { Runner } from "graphile-worker";
import type { Logger } from "../shared/platform/index.ts";

const FIRST_RESTART_MS = 500;
const LONGEST_RESTART_MS = 30_000;

export interface SupervisedRunner {
  /** Stops the running runner (finishing its jobs) and starts no other. */
  stop(): Promise<void>;
}

/** Starts a runner now (failing as `start` fails) and a new one each time the running one stops by itself. */
export async function superviseRunner(start: () => Promise<Runner>, logger: Logger, firstRestartMs = FIRST_RESTART_MS): Promise<SupervisedRunner> {
  let stopping = false;
  let running: Runner | undefined;
  let starting: Promise<void> | undefined;
  let timer: NodeJS.Timeout | undefined;

  const watch = (runner: Runner) => {
    running = runner;
    const ended = () => {
      if (running !== runner) return;
      running = undefined;
      if (stopping) return;
      logger.error("the job runner stopped by itself (as when it cannot record a job's end while the store is away); starting a new one");
      scheduleRestart(firstRestartMs);
    };
    runner.promise.then(ended, ended);
  };

  const scheduleRestart = (delayMs: number) => {
    timer = setTimeout(() => {
      starting = restart(delayMs);
    }, delayMs);
  };

  const restart = async (delayMs: number) => {
    try {
      watch(await start()); // a stop meanwhile waits for this start, and then stops the runner
      logger.info("a new job runner is running");
    } catch (error) {
      if (stopping) return;
      const nextMs = Math.min(delayMs * 2, LONGEST_RESTART_MS);
      logger.warn({ error, retryInMs: nextMs }, "could not start a new job runner");
      scheduleRestart(nextMs);
    }
  };

  watch(await start());
  return {
    async stop() {
      stopping = true;
      clearTimeout(timer);
      await starting;
      const runner = running;
      running = undefined;
      // A runner already stopping by itself refuses the call: its end is awaited instead.
      await runner?.stop().catch(() => runner.promise);
    },
  };
}
