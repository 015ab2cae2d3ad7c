// Stopping a change script that runs on a target (contract §12.5, §12.7):
// when the run's signal aborts, the running statement is interrupted from a
// second connection (PostgreSQL pg_cancel_backend, MySQL KILL QUERY) unless
// the mode lets it finish ("suspend" of a non-transactional script); either
// way the script stops at the next statement boundary.
import type { StopMode } from "./target.ts";

function stopModeOf(signal: AbortSignal): StopMode {
  return signal.reason === "suspend" ? "suspend" : "cancel";
}

export class ScriptStop {
  private readonly signal: AbortSignal;
  private readonly transactional: boolean;
  private readonly interrupt: () => Promise<void>;
  private interruption: Promise<void> | undefined;
  private readonly onAbort = () => {
    if (this.transactional || stopModeOf(this.signal) === "cancel") this.interruption = this.interrupt().catch(() => undefined);
  };

  /** `interrupt` stops the statement that runs now (it does nothing between statements). */
  constructor(signal: AbortSignal, transactional: boolean, interrupt: () => Promise<void>) {
    this.signal = signal;
    this.transactional = transactional;
    this.interrupt = interrupt;
    if (signal.aborted) this.onAbort();
    else signal.addEventListener("abort", this.onAbort, { once: true });
  }

  /** The script must not start another statement. */
  get requested(): boolean {
    return this.signal.aborted;
  }

  /** The running statement was interrupted: its failure is the stop, not the script's. */
  get interrupted(): boolean {
    return this.interruption !== undefined;
  }

  /** Waits for an interruption in flight, so that it cannot reach a later statement. */
  async settled(): Promise<void> {
    await this.interruption;
  }

  dispose(): void {
    this.signal.removeEventListener("abort", this.onAbort);
  }
}
