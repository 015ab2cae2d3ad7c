// What interrupts a running statement from outside it: the caller going
// away (the call's signal) and the query timeout's client-side backstop
// (the server's own statement timeout normally ends the statement first).
// Either interrupts it on the target from another connection; the
// statement's failure is then reported as what interrupted it.
import { DomainError, formatDuration } from "../../platform/index.ts";

/** How much later than the server's own limit the backstop interrupts the statement. */
const BACKSTOP_GRACE_MS = 500;

export class StatementWatch {
  private readonly signal: AbortSignal;
  private readonly timeoutMs: number | undefined;
  private readonly interruptStatement: () => Promise<void>;
  private cause: "canceled" | "timeout" | undefined;
  private interruption: Promise<void> | undefined;
  private readonly timer: NodeJS.Timeout | undefined;
  private readonly onAbort = () => this.interrupt("canceled");

  /** Throws canceled when the signal has already aborted: the statement must not start. */
  constructor(signal: AbortSignal, timeoutMs: number | undefined, interruptStatement: () => Promise<void>) {
    if (signal.aborted) throw canceledError();
    this.signal = signal;
    this.timeoutMs = timeoutMs;
    this.interruptStatement = interruptStatement;
    signal.addEventListener("abort", this.onAbort, { once: true });
    if (timeoutMs !== undefined) this.timer = setTimeout(() => this.interrupt("timeout"), timeoutMs + BACKSTOP_GRACE_MS);
  }

  /** The error that stands for the statement's failure when we interrupted it. */
  get error(): DomainError | undefined {
    if (this.cause === "canceled") return canceledError();
    if (this.cause === "timeout") return timeoutError(this.timeoutMs!);
    return undefined;
  }

  /** Stops watching and waits for an interruption on its way, so that it cannot reach a later statement. */
  async end(): Promise<void> {
    this.signal.removeEventListener("abort", this.onAbort);
    clearTimeout(this.timer);
    await this.interruption;
  }

  private interrupt(cause: "canceled" | "timeout"): void {
    if (this.cause) return;
    this.cause = cause;
    this.interruption = this.interruptStatement().catch(() => undefined);
  }
}

export function timeoutError(timeoutMs: number): DomainError {
  return new DomainError("deadline_exceeded", `the statement ran longer than the query timeout (${formatDuration(timeoutMs)}) and was cancelled on the target`);
}

export function canceledError(): DomainError {
  return new DomainError("canceled", "the call was cancelled; its statement was cancelled on the target");
}

/** A failure of the driver or the target, as opposed to one of the sink the rows go to. */
export class DriverError extends Error {
  override name = "DriverError";

  constructor(cause: unknown) {
    super(cause instanceof Error ? cause.message : String(cause), { cause });
  }
}
