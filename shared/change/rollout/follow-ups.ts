// The worker's follow-ups of its task runs (contract §12.2, §12.4): after a
// run started or ended, its rollout's watchers are told and, after an end,
// the rollout is brought up to date (progress.ts followUpRollout). They run
// beside the jobs, not in them, so that a job's slot takes the next run as
// soon as the run's end has committed. What is asked for one rollout while
// its follow-up runs, or before PASS_INTERVAL_MS from that follow-up's start
// have passed, is done by one more follow-up after it, which reads every
// change asked about (each was committed before it was asked): a rollout
// whose runs start and end by the hundred a second is followed up some
// twenty times a second, not once per run. A follow-up that fails is logged:
// the reconciler follows up every RUNNING rollout (§12.6), as it does for a
// worker that died in between.
import { setTimeout as sleep } from "node:timers/promises";
import type { Db, Logger } from "../../platform/index.ts";
import { followUpRollout } from "../pipeline/progress.ts";
import { rolloutName, type RolloutRef } from "./rollout-names.ts";
import { announceRunChange } from "../pipeline/task-runs.ts";

/** The least time from the start of one follow-up of a rollout to the start of the next. */
const PASS_INTERVAL_MS = 50;

/** What one follow-up does: the stages of the ends' tasks, and the actor of the latest end (who starts what they let start); no actor: no end, only starts to announce. */
interface Batch {
  ref: RolloutRef;
  actor: string | undefined;
  settledStageIds: string[];
}

interface Queue {
  /** Asked for while the queue's follow-up runs: done next. */
  next: Batch | undefined;
  drained: Promise<void>;
}

export class RolloutFollowUps {
  private readonly db: Db;
  private readonly logger: Logger;
  private readonly queues = new Map<string, Queue>();

  constructor(db: Db, logger: Logger) {
    this.db = db;
    this.logger = logger;
  }

  /** After a run of the rollout started: its watchers are told. */
  afterStart(ref: RolloutRef): void {
    this.ask(ref, undefined);
  }

  /** After a run of the rollout ended (its task, of stage `stageId`, settled): watchers are told and the rollout moves on. */
  afterEnd(ref: RolloutRef, actor: string, stageId: string): void {
    this.ask(ref, { actor, stageId });
  }

  /** Waits for the follow-ups asked for so far (and those they lead to). */
  async close(): Promise<void> {
    while (this.queues.size > 0) await Promise.all([...this.queues.values()].map((queue) => queue.drained));
  }

  private ask(ref: RolloutRef, end: End | undefined): void {
    const key = `${ref.projectId}/${ref.id}`;
    const queue = this.queues.get(key);
    if (queue) {
      queue.next = withEnd(queue.next ?? { ref, actor: undefined, settledStageIds: [] }, end);
      return;
    }
    const fresh: Queue = { next: undefined, drained: Promise.resolve() };
    this.queues.set(key, fresh);
    fresh.drained = this.drain(key, fresh, withEnd({ ref, actor: undefined, settledStageIds: [] }, end));
  }

  private async drain(key: string, queue: Queue, first: Batch): Promise<void> {
    let batch: Batch | undefined = first;
    while (batch) {
      const started = performance.now();
      await this.followUp(batch);
      // What is asked until the interval is over joins the next pass, also when nothing was asked during this one.
      await sleep(Math.max(0, started + PASS_INTERVAL_MS - performance.now()));
      batch = queue.next;
      queue.next = undefined;
    }
    this.queues.delete(key);
  }

  private async followUp(batch: Batch): Promise<void> {
    try {
      if (batch.actor === undefined) await announceRunChange(this.db, batch.ref);
      else await followUpRollout(this.db, batch.ref, batch.actor, batch.settledStageIds);
    } catch (error) {
      this.logger.warn({ error, rollout: rolloutName(batch.ref) }, "could not follow up a rollout after its task runs; the reconciler will");
    }
  }
}

interface End {
  actor: string;
  stageId: string;
}

function withEnd(batch: Batch, end: End | undefined): Batch {
  return end ? { ref: batch.ref, actor: end.actor, settledStageIds: [...batch.settledStageIds, end.stageId] } : batch;
}
