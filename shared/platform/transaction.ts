// Transactions of use cases, and writes they gather until their commit.
// Several changes of one transaction may each call for a write that one
// statement can do for all of them (the change notices of the resources it
// touched, the deliveries of the events it emitted): commitBatch queues them
// per transaction and writes them together just before the COMMIT, one
// round trip of the transaction instead of one per change.
import type { CommonQueryMethods } from "slonik";
import type { Db, Tx } from "./db.ts";

type CommitStep = () => Promise<void>;

/** The steps each open withTransaction transaction runs before its commit, in the order they were queued. */
const commitSteps = new WeakMap<CommonQueryMethods, CommitStep[]>();

/** One transaction per use case: the change, its audit record and its jobs. */
export function withTransaction<T>(db: Db, work: (tx: Tx) => Promise<T>): Promise<T> {
  return db.transaction(async (tx) => {
    const steps: CommitStep[] = [];
    commitSteps.set(tx, steps);
    const result = await work(tx);
    for (let step = steps.shift(); step; step = steps.shift()) await step();
    return result;
  });
}

/**
 * A write of items gathered per transaction: the function it answers queues
 * an item in `tx`, and `write` gets all of a transaction's items at once,
 * in the order they came, just before withTransaction commits it (a failed
 * write fails the transaction, as the writes it stands for would have). In
 * any other `tx` (a pool, a savepoint, a transaction opened elsewhere) the
 * item is written at once, alone.
 */
export function commitBatch<T>(write: (tx: CommonQueryMethods, items: T[]) => Promise<void>): (tx: CommonQueryMethods, item: T) => Promise<void> {
  const queued = new WeakMap<CommonQueryMethods, T[]>();
  return async (tx, item) => {
    const items = queued.get(tx);
    if (items) {
      items.push(item);
      return;
    }
    const steps = commitSteps.get(tx);
    if (!steps) return write(tx, [item]);
    const batch = [item];
    queued.set(tx, batch);
    steps.push(() => {
      queued.delete(tx);
      return write(tx, batch);
    });
  };
}
