// The settlements of task runs whose script has ended (contract §12.4):
// they go on beside the jobs, so that a job's slot takes its next run as
// soon as the script's session on the target has closed, as a bare script
// would. A run's locks are held until its settlement has committed (or has
// failed for good: then the reconciler settles the run, §12.6). At most
// MAX_PENDING are under way: a job that would add one more waits for room,
// so a metadata store that settles slowly slows the jobs down with it. The
// worker waits for them all when it stops.
import type { Logger } from "../platform/logger.ts";

const MAX_PENDING = 16;

export class RunSettlements {
  private readonly logger: Logger;
  private readonly pending = new Set<Promise<void>>();

  constructor(logger: Logger) {
    this.logger = logger;
  }

  /** Starts `settlement` beside the caller, once fewer than MAX_PENDING are under way. */
  async add(runId: number, settlement: () => Promise<void>): Promise<void> {
    while (this.pending.size >= MAX_PENDING) await Promise.race(this.pending);
    const running: Promise<void> = settlement()
      .catch((error: unknown) => this.logger.error({ error, runId }, "could not settle the task run; the reconciler will"))
      .finally(() => this.pending.delete(running));
    this.pending.add(running);
  }

  /** Waits for the settlements under way (and those added meanwhile). */
  async close(): Promise<void> {
    while (this.pending.size > 0) await Promise.all([...this.pending]);
  }
}
