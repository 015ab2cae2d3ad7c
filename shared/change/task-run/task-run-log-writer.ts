// Writes a task run's statement log (contract §12.4) in batches: at most
// BATCH entries or BATCH_MS apart while the script runs, the rest when it
// ends (in the transaction that settles the run). A run whose statements
// apply one by one (autocommit) writes each entry before the next statement
// starts, so that after a crash the log says exactly which statements were
// applied (§12.6).
import type { CommonQueryMethods } from "slonik";
import type { StatementLog } from "../../inventory/index.ts";
import { insertLogEntries } from "./store/task-run-log.store.ts";

const BATCH = 100;
const BATCH_MS = 1_000;

export class TaskRunLogWriter {
  private readonly db: CommonQueryMethods;
  private readonly runId: number;
  private pending: StatementLog[] = [];
  private lastWrite = performance.now();
  /** Set once the session is open: each entry is then written at once unless the script runs in one transaction. */
  eachAtOnce = true;

  constructor(db: CommonQueryMethods, runId: number) {
    this.db = db;
    this.runId = runId;
  }

  async add(entry: StatementLog): Promise<void> {
    this.pending.push(entry);
    if (this.eachAtOnce || this.pending.length >= BATCH || performance.now() - this.lastWrite >= BATCH_MS) await this.flush();
  }

  /** The entries not yet written, for the settling transaction to write; the writer forgets them. */
  takeRest(): StatementLog[] {
    return this.pending.splice(0);
  }

  async flush(): Promise<void> {
    const entries = this.pending;
    this.pending = [];
    this.lastWrite = performance.now();
    try {
      await insertLogEntries(this.db, this.runId, entries);
    } catch (error) {
      this.pending = [...entries, ...this.pending];
      throw error;
    }
  }
}
